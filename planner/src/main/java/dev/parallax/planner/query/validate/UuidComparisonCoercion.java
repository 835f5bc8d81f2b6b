package dev.parallax.planner.query.validate;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit coercion, except that a uuid compared with a string (=, <, IN, ...) compares as
 * uuid, as PostgreSQL reads the quoted literal in {@code id = 'A0EE...'} as a uuid. Calcite's own
 * rule casts the uuid to char(36) instead: upper case or braced spellings then never match, and
 * neither the primary key lookup nor partition pruning sees a key comparison. Two intervals of one
 * family compare without a cast.
 */
public final class UuidComparisonCoercion extends TypeCoercionImpl {
    public UuidComparisonCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    public RelDataType commonTypeForBinaryComparison(RelDataType left, RelDataType right) {
        if (left != null && right != null) {
            if (isUuid(left) && SqlTypeUtil.isCharacter(right)) {
                return nullableLike(left, right);
            }
            if (isUuid(right) && SqlTypeUtil.isCharacter(left)) {
                return nullableLike(right, left);
            }
            if (SqlTypeUtil.isInterval(left) && SqlTypeUtil.isInterval(right) && left.getFamily() == right.getFamily()) {
                // Day-time intervals of other fields (timestamp - timestamp > interval '30 minutes') compare as
                // they are; Calcite's cast between them would spell an interval type as a plain one.
                return null;
            }
        }
        return super.commonTypeForBinaryComparison(left, right);
    }

    private static boolean isUuid(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.UUID;
    }

    private RelDataType nullableLike(RelDataType uuid, RelDataType other) {
        return factory.createTypeWithNullability(uuid, uuid.isNullable() || other.isNullable());
    }
}
