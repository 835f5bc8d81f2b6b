package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A failure a check of our validator finds, already in PostgreSQL's words: thrown as Calcite's
 * context exception so that the error keeps Calcite's position of the node, and turned back into
 * the ParallaxException it carries (CalciteErrors.fromValidation).
 */
public final class PostgresValidationError {
    private PostgresValidationError() {
    }

    /** The error {@code state} {@code message} (with {@code hint}, or null) at {@code position}. */
    public static CalciteContextException at(SqlParserPos position, SqlState state, String message, String hint) {
        return new CalciteContextException(message, new ParallaxException(state, message, null, hint, 0, null),
                position.getLineNum(), position.getColumnNum(), position.getEndLineNum(), position.getEndColumnNum());
    }
}
