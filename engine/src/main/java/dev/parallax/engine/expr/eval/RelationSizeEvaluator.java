package dev.parallax.engine.expr.eval;

import dev.parallax.engine.catalog.RelationSizeSnapshot;
import dev.parallax.engine.catalog.RelationSizes;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * pg_table_size, pg_relation_size(rel, fork), pg_indexes_size, pg_total_relation_size (a relation
 * OID) and pg_database_size (a name or an OID): bytes read from one {@link RelationSizeSnapshot} per
 * batch, so every row of a batch sees the same moment; NULL in, NULL out.
 */
final class RelationSizeEvaluator extends Evaluator {
    private static final byte[] MAIN = "main".getBytes(StandardCharsets.US_ASCII);
    /** Forks PostgreSQL knows that Parallax relations do not have: their size is 0. */
    private static final byte[][] EMPTY_FORKS = {
            "fsm".getBytes(StandardCharsets.US_ASCII), "vm".getBytes(StandardCharsets.US_ASCII), "init".getBytes(StandardCharsets.US_ASCII)};

    private final Function function;
    private final Evaluator[] arguments;
    private final RelationSizes sizes;
    private final LongVector output = new LongVector(DataType.BIGINT, Evaluator.INITIAL_CAPACITY);

    RelationSizeEvaluator(Function function, Evaluator[] arguments, RelationSizes sizes) {
        super(DataType.BIGINT);
        this.function = function;
        this.arguments = arguments;
        this.sizes = sizes;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector result = prepare(output, input);
        if (count == 0) {
            return result;
        }
        ColumnVector relation = arguments[0].evaluate(input, selection, count);
        ColumnVector fork = arguments.length > 1 ? arguments[1].evaluate(input, selection, count) : null;
        RelationSizeSnapshot snapshot = sizes.read();
        long[] values = result.values();
        boolean[] nulls = result.nulls();
        boolean anyNull = false;
        RelationSizeSnapshot.Measure measure = switch (function) {
            case TABLE_SIZE -> RelationSizeSnapshot.Measure.TABLE;
            case INDEXES_SIZE -> RelationSizeSnapshot.Measure.INDEXES;
            case TOTAL_RELATION_SIZE -> RelationSizeSnapshot.Measure.TOTAL;
            default -> RelationSizeSnapshot.Measure.MAIN_FORK;
        };
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (relation.isNull(position) || fork != null && fork.isNull(position)) {
                nulls[position] = true;
                anyNull = true;
                continue;
            }
            long bytes;
            if (function == Function.DATABASE_SIZE) {
                bytes = databaseBytes(snapshot, relation, position);
            } else {
                bytes = snapshot.bytes(((LongVector) relation).get(position), measure);
                if (bytes >= 0 && fork != null && !isMainFork((BytesVector) fork, position)) {
                    bytes = 0;
                }
            }
            if (bytes < 0) {
                nulls[position] = true;
                anyNull = true;
            } else {
                values[position] = bytes;
            }
        }
        if (anyNull) {
            result.markMayHaveNulls();
        }
        return result;
    }

    /** The database's bytes by name (3D000 for another name) or by OID (-1, NULL, for another OID). */
    private static long databaseBytes(RelationSizeSnapshot snapshot, ColumnVector database, int position) {
        if (database instanceof BytesVector names) {
            String name = names.getString(position);
            if (!name.equals(snapshot.databaseName())) {
                throw ParallaxException.of(SqlState.INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
            }
            return snapshot.databaseBytes();
        }
        return ((LongVector) database).get(position) == snapshot.databaseOid() ? snapshot.databaseBytes() : -1;
    }

    /** True for the fork 'main', false for the empty forks; 22023 for a name PostgreSQL does not know. */
    private static boolean isMainFork(BytesVector forks, int position) {
        byte[] data = forks.data();
        int from = forks.offset(position);
        int to = from + forks.length(position);
        if (Arrays.equals(data, from, to, MAIN, 0, MAIN.length)) {
            return true;
        }
        for (byte[] empty : EMPTY_FORKS) {
            if (Arrays.equals(data, from, to, empty, 0, empty.length)) {
                return false;
            }
        }
        throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "invalid fork name")
                .withHint("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".");
    }
}
