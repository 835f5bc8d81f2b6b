package dev.parallax.planner.query.validate;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * PostgreSQL's rule that the rows of a VALUES list have one length, checked on the parsed statement:
 * Calcite's validator reports a longer or shorter row as a type mismatch ("Incompatible types"), and
 * INSERT without a column list fails inside its implicit target columns when a row is longer.
 */
public final class ValuesRowLengths {
    private ValuesRowLengths() {
    }

    /** The number of values in {@code row}, one row of a VALUES list (a single value stands without ROW). */
    static int length(SqlNode row) {
        return row instanceof SqlCall rowCall && row.getKind() == SqlKind.ROW ? rowCall.operandCount() : 1;
    }

    /** Where the first row whose length differs from its VALUES list's first row starts (its first value); null when none does. */
    public static SqlParserPos firstMismatch(SqlNode parsed) {
        SqlParserPos[] found = new SqlParserPos[1];
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (found[0] == null && call.getKind() == SqlKind.VALUES) {
                    int length = -1;
                    for (SqlNode row : call.getOperandList()) {
                        int rowLength = length(row);
                        if (length >= 0 && rowLength != length && found[0] == null) {
                            found[0] = row instanceof SqlCall rowCall && rowCall.operandCount() > 0
                                    ? rowCall.operand(0).getParserPosition() : row.getParserPosition();
                        }
                        length = length < 0 ? rowLength : length;
                    }
                }
                return super.visit(call);
            }
        });
        return found[0];
    }
}
