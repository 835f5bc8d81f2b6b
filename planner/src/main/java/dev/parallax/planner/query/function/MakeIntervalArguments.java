package dev.parallax.planner.query.function;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCallBinding;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.util.List;

/**
 * make_interval's arguments and type. PostgreSQL's interval holds months, days and time together;
 * Parallax's holds months or days and time: the call is an interval of months when only years and
 * months are given (an argument left out, or a literal 0, is not given), else one of days and time;
 * giving both kinds is refused (0A000), as a literal mixing them is.
 */
public final class MakeIntervalArguments {
    /** PostgreSQL's parameter names, in order. */
    public static final List<String> NAMES = List.of("years", "months", "weeks", "days", "hours", "mins", "secs");
    /** Arguments before this index count months; the others days and time. */
    private static final int FIRST_DAY_TIME = 2;

    private MakeIntervalArguments() {
    }

    static List<RelDataType> types(RelDataTypeFactory factory) {
        RelDataType integer = factory.createSqlType(SqlTypeName.INTEGER);
        return List.of(integer, integer, integer, integer, integer, integer, factory.createSqlType(SqlTypeName.DOUBLE));
    }

    static RelDataType type(SqlOperatorBinding binding) {
        boolean months = false;
        boolean dayTime = false;
        for (int index = 0; index < operandCount(binding); index++) {
            if (given(binding, index)) {
                months |= index < FIRST_DAY_TIME;
                dayTime |= index >= FIRST_DAY_TIME;
            }
        }
        if (months && dayTime) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "make_interval with years or months and also weeks, days, hours, mins or secs is not supported: "
                            + "Parallax intervals hold months or days and time, not both");
        }
        RelDataTypeFactory factory = binding.getTypeFactory();
        // The qualifiers of the interval literals the dialect rewrite writes (PostgresIntervalText), so
        // that comparing with one needs no cast between interval precisions.
        SqlIntervalQualifier qualifier = months
                ? new SqlIntervalQualifier(TimeUnit.MONTH, 9, null, -1, SqlParserPos.ZERO)
                : new SqlIntervalQualifier(TimeUnit.DAY, 9, TimeUnit.SECOND, 6, SqlParserPos.ZERO);
        // Nullable: strict, and Calcite types named arguments before it fills in the ones left out.
        return factory.createTypeWithNullability(factory.createSqlIntervalType(qualifier), true);
    }

    /** The arguments in parameter order, named ones placed and left-out ones DEFAULT (Calcite's permuted call). */
    private static SqlNode operand(SqlCallBinding binding, int index) {
        return binding.permutedCall().operand(index);
    }

    private static int operandCount(SqlOperatorBinding binding) {
        return binding instanceof SqlCallBinding call ? call.permutedCall().operandCount() : binding.getOperandCount();
    }

    /** Whether argument {@code index} is given: not left out (DEFAULT) and not a literal 0. */
    private static boolean given(SqlOperatorBinding binding, int index) {
        if (isDefault(binding, index)) {
            return false;
        }
        if (binding instanceof SqlCallBinding call && operand(call, index) instanceof SqlLiteral literal
                && literal.getValue() instanceof BigDecimal number) {
            return number.signum() != 0;
        }
        if (binding instanceof RexCallBinding call && call.operands().get(index) instanceof RexLiteral literal
                && literal.getValue() instanceof BigDecimal number) {
            return number.signum() != 0;
        }
        return true;
    }

    private static boolean isDefault(SqlOperatorBinding binding, int index) {
        if (binding instanceof SqlCallBinding call) {
            return operand(call, index).getKind() == SqlKind.DEFAULT;
        }
        if (binding instanceof RexCallBinding call) {
            RexNode operand = call.operands().get(index);
            return operand instanceof RexCall rex && rex.getKind() == SqlKind.DEFAULT;
        }
        return false;
    }
}
