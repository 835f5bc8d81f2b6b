package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.function.CatalogFunctions;
import org.apache.calcite.sql.SqlOperator;

import java.util.List;

/**
 * The engine calls of PostgreSQL's size functions ({@link CatalogFunctions#TABLE_SIZE} and the
 * others), with their arguments brought to the types the engine reads: a relation OID as bigint, a
 * fork name as text, a database as text (a name) or bigint (an OID), pg_size_pretty's bytes as
 * bigint or numeric.
 */
final class SizeFunctions {
    private SizeFunctions() {
    }

    /** The engine call for {@code operator} over the translated {@code arguments}, or null when it is no size function. */
    static Expr translate(SqlOperator operator, List<Expr> arguments) {
        if (operator == CatalogFunctions.SIZE_PRETTY) {
            Expr size = arguments.getFirst();
            TypeKind kind = size.type().kind();
            if (kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER) {
                // PostgreSQL: an integer converts to bigint and to numeric alike.
                throw ParallaxException.of(SqlState.AMBIGUOUS_FUNCTION, "function pg_size_pretty(%s) is not unique",
                        size.type().sqlName()).withHint("Could not choose a best candidate function. You might need to add explicit type casts.");
            }
            Expr bytes = kind == TypeKind.DECIMAL || kind == TypeKind.BIGINT ? size : ArgumentTypes.castTo(size, DataType.BIGINT);
            return new Call(Function.SIZE_PRETTY, DataType.TEXT, bytes);
        }
        if (operator == CatalogFunctions.DATABASE_SIZE) {
            Expr database = arguments.getFirst();
            Expr identity = database.type().kind().isText() ? database : ArgumentTypes.castTo(database, DataType.BIGINT);
            return new Call(Function.DATABASE_SIZE, DataType.BIGINT, identity);
        }
        Function function;
        if (operator == CatalogFunctions.TABLE_SIZE) {
            function = Function.TABLE_SIZE;
        } else if (operator == CatalogFunctions.RELATION_SIZE) {
            function = Function.RELATION_SIZE;
        } else if (operator == CatalogFunctions.INDEXES_SIZE) {
            function = Function.INDEXES_SIZE;
        } else if (operator == CatalogFunctions.TOTAL_RELATION_SIZE) {
            function = Function.TOTAL_RELATION_SIZE;
        } else {
            return null;
        }
        Expr relation = ArgumentTypes.castTo(arguments.getFirst(), DataType.BIGINT);
        if (arguments.size() == 1) {
            return new Call(function, DataType.BIGINT, relation);
        }
        return new Call(function, DataType.BIGINT, relation, ArgumentTypes.castTo(arguments.get(1), DataType.TEXT));
    }
}
