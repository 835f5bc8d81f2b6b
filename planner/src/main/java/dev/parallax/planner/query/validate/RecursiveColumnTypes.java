package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * PostgreSQL types a recursive query by its non-recursive term alone and refuses (42804) a column
 * that the union with the recursive term widens ({@code select 1 union all select n::bigint + 1
 * from r}: integer in the non-recursive term, bigint overall). Calcite instead widens the whole
 * query, the non-recursive term included; so each recursive query's non-recursive term is
 * validated on its own, with the WITH items before it, from a fresh parse (validation rewrites the
 * tree it validates), and compared with the type the whole statement's validation gave the query.
 */
public final class RecursiveColumnTypes {
    private RecursiveColumnTypes() {
    }

    /** A recursive WITH item of the form {@code non-recursive UNION [ALL] recursive}: its WITH and position there. */
    private record RecursiveItem(SqlWith with, int position, SqlWithItem item, SqlCall union) {
    }

    /**
     * Throws 42804 for the first column of a recursive query in {@code validated} (validated by
     * {@code validator}) whose type differs in kind from its non-recursive term's; {@code fresh}
     * parses the statement again, {@code freshValidator} gives a new validator.
     */
    public static void check(SqlNode validated, SqlValidator validator, Supplier<SqlNode> fresh,
                             Supplier<SqlValidator> freshValidator) {
        List<RecursiveItem> recursive = recursiveItems(validated);
        if (recursive.isEmpty()) {
            return;
        }
        List<RecursiveItem> freshItems = recursiveItems(fresh.get());
        if (freshItems.size() != recursive.size()) {
            return;
        }
        for (int index = 0; index < recursive.size(); index++) {
            RelDataType overall = validator.getValidatedNodeTypeIfKnown(recursive.get(index).item().query);
            RelDataType first = nonRecursiveType(freshItems.get(index), freshValidator.get());
            if (overall != null && first != null) {
                compare(recursive.get(index).item().name.getSimple(), first, overall);
            }
        }
    }

    /** The row type of the non-recursive term validated with the WITH items before it; null when it does not validate alone. */
    private static RelDataType nonRecursiveType(RecursiveItem recursive, SqlValidator validator) {
        SqlNode term = recursive.union().operand(0);
        SqlNode query = recursive.position() == 0 ? term : new SqlWith(term.getParserPosition(),
                new SqlNodeList(recursive.with().withList.getList().subList(0, recursive.position()), term.getParserPosition()), term);
        try {
            return validator.getValidatedNodeType(validator.validate(query));
        } catch (RuntimeException notAlone) {
            return null;
        }
    }

    private static void compare(String name, RelDataType first, RelDataType overall) {
        if (first.getFieldCount() != overall.getFieldCount()) {
            return;
        }
        for (int column = 0; column < first.getFieldCount(); column++) {
            DataType nonRecursive = TypeMapping.toEngine(first.getFieldList().get(column).getType());
            DataType union = TypeMapping.toEngine(overall.getFieldList().get(column).getType());
            if (nonRecursive.kind() == union.kind() || nonRecursive.kind() == TypeKind.NULL
                    || isString(nonRecursive) && isString(union)) {
                continue;
            }
            throw new ParallaxException(SqlState.DATATYPE_MISMATCH,
                    String.format("recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
                            name, column + 1, typeName(nonRecursive), typeName(union)),
                    null, "Cast the output of the non-recursive term to the correct type.", 0, null);
        }
    }

    /** PostgreSQL's name of the type; numeric without the precision Calcite gives every numeric value. */
    private static String typeName(DataType type) {
        return type.kind() == TypeKind.DECIMAL ? type.nameWithoutModifier() : type.sqlName();
    }

    /**
     * Calcite types a string literal char(n) where PostgreSQL's is text, and concatenation's
     * length grows: string types are not told apart here (PostgreSQL would refuse varchar(n) against text).
     */
    private static boolean isString(DataType type) {
        return type.kind() == TypeKind.CHAR || type.kind() == TypeKind.VARCHAR || type.kind() == TypeKind.TEXT;
    }

    /** The recursive WITH items of {@code root} whose query is a UNION, in the order of a walk of the tree. */
    private static List<RecursiveItem> recursiveItems(SqlNode root) {
        List<RecursiveItem> items = new ArrayList<>();
        root.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlWith with) {
                    for (int position = 0; position < with.withList.size(); position++) {
                        if (with.withList.get(position) instanceof SqlWithItem item && item.recursive != null
                                && item.recursive.booleanValue() && union(item.query) != null
                                && RecursionChecks.reads(item.query, item.name.getSimple())) {
                            items.add(new RecursiveItem(with, position, item, union(item.query)));
                        }
                    }
                }
                return super.visit(call);
            }
        });
        return items;
    }

    private static SqlCall union(SqlNode query) {
        SqlNode node = query instanceof SqlOrderBy orderBy ? orderBy.query : query;
        return node instanceof SqlCall call && node.getKind() == SqlKind.UNION ? call : null;
    }
}
