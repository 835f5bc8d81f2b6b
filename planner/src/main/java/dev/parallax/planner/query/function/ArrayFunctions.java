package dev.parallax.planner.query.function;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's array functions and operators beyond the basic ones of {@link ParallaxFunctions}:
 * array_append, array_prepend, array_cat, array_remove, array_replace, array_position(s),
 * array_fill, and the dialect rewrite's {@code pg_array_contains} ({@code @>}),
 * {@code pg_array_contained} ({@code <@}), {@code pg_array_overlap} ({@code &&}) and
 * {@code pg_array_slice} ({@code a[lower:upper]}). Like PostgreSQL's anycompatible arguments, an
 * array and a value meet in their common type ({@code array_append(ARRAY[1], 2.5)} is numeric[]).
 */
public final class ArrayFunctions {
    public static final SqlFunction ARRAY_APPEND = SqlBasicFunction.create("array_append",
            binding -> commonArray(binding, 0, 1), OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ANY), SqlFunctionCategory.SYSTEM);
    public static final SqlFunction ARRAY_PREPEND = SqlBasicFunction.create("array_prepend",
            binding -> commonArray(binding, 1, 0), OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.ARRAY), SqlFunctionCategory.SYSTEM);
    /** {@code array_cat(a, b)}: {@code a || b}. */
    public static final SqlFunction ARRAY_CAT = SqlBasicFunction.create("array_cat",
            binding -> commonArray(binding, 0, -1), OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ARRAY), SqlFunctionCategory.SYSTEM);
    public static final SqlFunction ARRAY_REMOVE = SqlBasicFunction.create("array_remove",
            binding -> commonArray(binding, 0, 1), OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ANY), SqlFunctionCategory.SYSTEM);
    public static final SqlFunction ARRAY_REPLACE = SqlBasicFunction.create("array_replace",
            binding -> commonArray(binding, 0, 1, 2),
            OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ANY, SqlTypeFamily.ANY), SqlFunctionCategory.SYSTEM);
    /** {@code array_position(array, value[, start])}: a subscript, NULL when not found. */
    public static final SqlFunction ARRAY_POSITION = SqlBasicFunction.create("array_position",
            ReturnTypes.explicit(SqlTypeName.INTEGER).andThen(SqlTypeTransforms.FORCE_NULLABLE),
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ANY),
                    OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ANY, SqlTypeFamily.INTEGER)), SqlFunctionCategory.SYSTEM);
    /** {@code array_positions(array, value)}: every subscript holding the value, as an int[]. */
    public static final SqlFunction ARRAY_POSITIONS = SqlBasicFunction.create("array_positions",
            ArrayFunctions::integerArray, OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ANY), SqlFunctionCategory.SYSTEM);
    /** {@code array_fill(value, dimensions[, lower bounds])}: an array of the value's type (text for a string). */
    public static final SqlFunction ARRAY_FILL = SqlBasicFunction.create("array_fill", ArrayFunctions::fillType,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.ARRAY),
                    OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.ARRAY, SqlTypeFamily.ARRAY)), SqlFunctionCategory.SYSTEM);
    /** {@code a @> b}, {@code a <@ b}, {@code a && b} after the dialect rewrite. */
    public static final SqlFunction CONTAINS = containment("pg_array_contains");
    public static final SqlFunction CONTAINED = containment("pg_array_contained");
    public static final SqlFunction OVERLAP = containment("pg_array_overlap");
    /**
     * {@code a[lower:upper]} after the dialect rewrite: {@code pg_array_slice(a, lower, upper,
     * lower written, upper written)}, an omitted bound written as 0 with its flag false.
     */
    public static final SqlFunction SLICE = SqlBasicFunction.create("pg_array_slice",
            ReturnTypes.ARG0.andThen(SqlTypeTransforms.FORCE_NULLABLE),
            OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.BOOLEAN,
                    SqlTypeFamily.BOOLEAN), SqlFunctionCategory.SYSTEM);

    /** The functions above, for the validator's operator table. */
    public static final SqlOperatorTable TABLE = SqlOperatorTables.of(ARRAY_APPEND, ARRAY_PREPEND, ARRAY_CAT, ARRAY_REMOVE,
            ARRAY_REPLACE, ARRAY_POSITION, ARRAY_POSITIONS, ARRAY_FILL, CONTAINS, CONTAINED, OVERLAP, SLICE);

    private ArrayFunctions() {
    }

    /**
     * Whether {@code operator} is {@code @>}, {@code <@}, {@code &&} or array_cat, whose quoted
     * literal operand PostgreSQL types as the other operand's array type (by name: the validator
     * may meet the call before its operator is resolved).
     */
    public static boolean takesTwoArrays(org.apache.calcite.sql.SqlOperator operator) {
        String name = operator.getName().toLowerCase(java.util.Locale.ROOT);
        return name.equals(CONTAINS.getName()) || name.equals(CONTAINED.getName()) || name.equals(OVERLAP.getName())
                || name.equals(ARRAY_CAT.getName());
    }

    private static SqlFunction containment(String name) {
        return SqlBasicFunction.create(name, ReturnTypes.BOOLEAN_FORCE_NULLABLE,
                OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ARRAY), SqlFunctionCategory.SYSTEM);
    }

    /**
     * An array of the common type of the array operand's elements and the other operands
     * ({@code elements}, a value each; -1 for another array). NULL operands take the array's type;
     * strings meet as text.
     */
    private static RelDataType commonArray(SqlOperatorBinding binding, int array, int... elements) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        List<RelDataType> types = new ArrayList<>();
        addComponent(types, binding.getOperandType(array));
        if (elements.length == 1 && elements[0] < 0) {
            addComponent(types, binding.getOperandType(1 - array));
        } else {
            for (int element : elements) {
                RelDataType type = binding.getOperandType(element);
                if (type.getSqlTypeName() != SqlTypeName.NULL) {
                    types.add(type);
                }
            }
        }
        RelDataType common = types.isEmpty() ? null : types.stream().allMatch(SqlTypeUtil::inCharFamily)
                ? factory.createSqlType(SqlTypeName.VARCHAR) : factory.leastRestrictive(types);
        if (common == null) {
            List<String> operands = new ArrayList<>();
            for (int operand = 0; operand < binding.getOperandCount(); operand++) {
                operands.add(binding.getOperandType(operand).getFullTypeString().toLowerCase(java.util.Locale.ROOT)
                        .replace(" not null", "").replace("varchar", "text").replace(" array", "[]"));
            }
            throw ParallaxException.of(SqlState.UNDEFINED_FUNCTION, "function %s(%s) does not exist",
                    binding.getOperator().getName(), String.join(", ", operands))
                    .withHint("No function matches the given name and argument types. You might need to add explicit type casts.");
        }
        return factory.createTypeWithNullability(factory.createArrayType(factory.createTypeWithNullability(common, true), -1), true);
    }

    /** The element type of {@code array}, unless it is an untyped NULL. */
    private static void addComponent(List<RelDataType> types, RelDataType array) {
        if (array.getComponentType() != null) {
            types.add(array.getComponentType());
        }
    }

    private static RelDataType integerArray(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType element = factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.INTEGER), true);
        return factory.createTypeWithNullability(factory.createArrayType(element, -1), true);
    }

    private static RelDataType fillType(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType value = binding.getOperandType(0);
        RelDataType element = SqlTypeUtil.inCharFamily(value) ? factory.createSqlType(SqlTypeName.VARCHAR) : value;
        return factory.createTypeWithNullability(factory.createArrayType(factory.createTypeWithNullability(element, true), -1), true);
    }
}
