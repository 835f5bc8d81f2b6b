package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.operator.scan.PartitionedUniqueIndexLookup;
import dev.parallax.engine.operator.scan.UniqueIndexLookup;
import dev.parallax.engine.partition.PartitionHash;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.plan.UniqueIndexScanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fast path of a prepared point query ({@code select ... from t where key = $1}): a plan whose
 * root is a unique-index lookup, or an Append of one per partition pruned by the same parameters,
 * runs here without the executor: bind the key, hash it to its partition when the table is
 * partitioned, one Chronicle Map get, one row read. No operator tree, execution context or
 * statement registration per execution; the lookup (and its batches) is made once with the plan
 * and reused. A partitioned table's lookup keeps what it needs of each partition in arrays by
 * partition ordinal ({@link PartitionedUniqueIndexLookup}). The plan stays valid while the catalog version does (the caller
 * falls back to the general path, which plans again, otherwise). Used by one thread at a time, as its session.
 */
final class PointLookupPlan {
    private final Catalog catalog;
    private final long catalogVersion;
    private final List<ResultColumn> columns;
    private final List<DataType> parameterTypes;
    /** The lookup of a table that is not partitioned; null when partitioned. */
    private final UniqueIndexLookup tableLookup;
    /**
     * The lookup of a partitioned table, by partition ordinal (partitions pruned when planning have
     * none); null when not partitioned.
     */
    private final PartitionedUniqueIndexLookup partitionLookup;
    /** Key values in key order: a parameter or a literal each (taken from the first target; all targets agree). */
    private final List<Expr> keyValues;
    private final List<DataType> keyTypes;
    private final PartitionRouter router;
    /** For each partition key column (key order), its position among the unique key's columns. */
    private final int[] partitionKeyPositions;
    private final TypeKind[] partitionKeyKinds;
    private final Object[] keyScratch;
    /** The single long-held key parameter's index, or -1 when the general binding is needed. */
    private final int longKeyParameter;
    /** The last result handed out, handed out again once its caller closed it (see {@link #resultOf}). */
    private PointLookupResult lastResult;

    private PointLookupPlan(Catalog catalog, long catalogVersion, PlannedStatement statement, UniqueIndexScanNode first,
                            UniqueIndexLookup tableLookup, PartitionedUniqueIndexLookup partitionLookup,
                            PartitionRouter router, int[] partitionKeyPositions) {
        this.catalog = catalog;
        this.catalogVersion = catalogVersion;
        this.columns = statement.columns();
        this.parameterTypes = statement.parameterTypes();
        this.tableLookup = tableLookup;
        this.partitionLookup = partitionLookup;
        this.keyValues = first.keyValues();
        this.keyTypes = new ArrayList<>();
        for (int column : first.constraint().keyColumns()) {
            keyTypes.add(first.table().columns().get(column).type());
        }
        this.router = router;
        this.partitionKeyPositions = partitionKeyPositions;
        this.partitionKeyKinds = new TypeKind[partitionKeyPositions == null ? 0 : partitionKeyPositions.length];
        for (int key = 0; key < partitionKeyKinds.length; key++) {
            partitionKeyKinds[key] = keyTypes.get(partitionKeyPositions[key]).kind();
        }
        this.keyScratch = new Object[keyValues.size()];
        this.longKeyParameter = keyValues.size() == 1 && keyValues.getFirst() instanceof Parameter parameter
                && keyTypes.getFirst().vectorKind() == VectorKind.LONG && ParameterBinder.isIntegerKind(keyTypes.getFirst().kind())
                && ParameterBinder.isIntegerKind(parameter.type().kind()) ? parameter.index() : -1;
    }

    /** The fast path for {@code statement} (planned at {@code catalogVersion}), or null when its plan is not a point lookup. */
    static PointLookupPlan of(Catalog catalog, long catalogVersion, PlannedStatement statement) {
        if (!statement.returnsRows()) {
            return null;
        }
        PlanNode root = statement.root();
        int[] projection = null;
        if (root instanceof ProjectNode project) {
            projection = new int[project.expressions().size()];
            for (int column = 0; column < projection.length; column++) {
                if (!(project.expressions().get(column) instanceof ColumnRef ref)
                        || !ref.type().equals(project.input().outputTypes().get(ref.index()))) {
                    return null;
                }
                projection[column] = ref.index();
            }
            root = project.input();
        }
        if (root instanceof UniqueIndexScanNode lookup) {
            int[] outputColumns = outputColumns(lookup, projection);
            return new PointLookupPlan(catalog, catalogVersion, statement, lookup,
                    new UniqueIndexLookup(lookup.table(), lookup.constraint(), outputColumns), null, null, null);
        }
        if (!(root instanceof PartitionAppendNode append) || append.runtimePruning() == null || append.parallel()) {
            return null;
        }
        PartitionRouter router = append.router();
        Table[] partitions = new Table[router.partitionCount()];
        UniqueConstraint[] constraints = new UniqueConstraint[partitions.length];
        int[] ordinals = append.inputOrdinals();
        UniqueIndexScanNode first = null;
        for (int input = 0; input < ordinals.length; input++) {
            if (!(append.inputs().get(input) instanceof UniqueIndexScanNode lookup)) {
                return null;
            }
            if (first == null) {
                first = lookup;
            } else if (!lookup.keyValues().equals(first.keyValues())
                    || !Arrays.equals(lookup.constraint().keyColumns(), first.constraint().keyColumns())
                    || !Arrays.equals(lookup.columns(), first.columns())) {
                return null;
            }
            partitions[ordinals[input]] = lookup.table();
            constraints[ordinals[input]] = lookup.constraint();
        }
        if (first == null) {
            return null;
        }
        int[] outputColumns = outputColumns(first, projection);
        PartitionedUniqueIndexLookup partitionLookup = PartitionedUniqueIndexLookup.of(partitions, constraints, outputColumns);
        if (partitionLookup == null) {
            return null;
        }
        int[] uniqueKey = first.constraint().keyColumns();
        int[] partitionKey = router.keyColumns();
        int[] positions = new int[partitionKey.length];
        for (int key = 0; key < partitionKey.length; key++) {
            positions[key] = -1;
            for (int position = 0; position < uniqueKey.length; position++) {
                if (uniqueKey[position] == partitionKey[key]) {
                    positions[key] = position;
                }
            }
            if (positions[key] < 0) {
                return null;
            }
        }
        return new PointLookupPlan(catalog, catalogVersion, statement, first, null, partitionLookup, router, positions);
    }

    /** The table columns the result returns: the lookup's, through {@code projection} (null: none) of them. */
    private static int[] outputColumns(UniqueIndexScanNode lookup, int[] projection) {
        int[] scanColumns = lookup.columns();
        if (projection == null) {
            return scanColumns;
        }
        int[] output = new int[projection.length];
        for (int column = 0; column < projection.length; column++) {
            output[column] = scanColumns[projection[column]];
        }
        return output;
    }

    /** Whether the plan still describes the catalog (no DDL since it was made). */
    boolean isValid() {
        return catalog.version() == catalogVersion;
    }

    /** Runs the lookup with {@code parameters} (the application's values, not yet bound). */
    Result execute(Object[] parameters) {
        if (parameters == null || parameters.length != parameterTypes.size()) {
            ParameterBinder.bind(parameterTypes, parameters);
        }
        if (longKeyParameter >= 0 && parameters[longKeyParameter] instanceof Number number
                && (number instanceof Integer || number instanceof Long || number instanceof Short)) {
            long key = number.longValue();
            ParameterBinder.checkIntegerRange(parameterTypes.get(longKeyParameter), key);
            if (parameters.length > 1) {
                ParameterBinder.bind(parameterTypes, parameters);
            }
            if (partitionLookup == null) {
                return resultOf(tableLookup.lookupLong(key));
            }
            // NO_PARTITION (-1) and ordinals pruned when planning find no row.
            return resultOf(partitionLookup.lookupLong(router.ordinalOfHash(PartitionHash.combine(0, PartitionHash.ofLong(key))), key));
        }
        Object[] bound = ParameterBinder.bind(parameterTypes, parameters);
        for (int key = 0; key < keyScratch.length; key++) {
            Expr value = keyValues.get(key);
            keyScratch[key] = value instanceof Parameter parameter ? bound[parameter.index()] : ((Literal) value).value();
            if (keyScratch[key] == null) {
                return resultOf(null);
            }
        }
        if (partitionLookup == null) {
            return resultOf(tableLookup.lookup(keyScratch));
        }
        return resultOf(partitionLookup.lookup(router.ordinalOfHash(partitionHash()), keyScratch));
    }

    /** The partition hash of the bound key, combined over the partition key columns as {@link PartitionRouter#route} does. */
    private long partitionHash() {
        long hash = 0;
        for (int key = 0; key < partitionKeyPositions.length; key++) {
            Object value = keyScratch[partitionKeyPositions[key]];
            long valueHash = switch (value) {
                case Long longValue -> PartitionHash.ofLong(longValue);
                case Double doubleValue -> PartitionHash.ofDouble(doubleValue);
                case byte[] bytes -> hashBytes(bytes, partitionKeyKinds[key]);
                default -> throw new IllegalStateException("unexpected key value " + value.getClass());
            };
            hash = PartitionHash.combine(hash, valueHash);
        }
        return hash;
    }

    private static long hashBytes(byte[] bytes, TypeKind kind) {
        int length = bytes.length;
        if (kind == TypeKind.CHAR) {
            while (length > 0 && bytes[length - 1] == ' ') {
                length--;
            }
        }
        return PartitionHash.ofBytes(bytes, 0, length);
    }

    /**
     * The result of an execution that found {@code row} (null: none). The previous execution's result
     * object is reused once its caller closed it, so an execution allocates nothing: its row batch
     * is shared with the next execution already ({@link UniqueIndexLookup}), so a result is only
     * meaningful until then anyway, and closing a result touches nothing the next execution's
     * delivery depends on (see {@link PointLookupResult#close}). A result still open when the query
     * runs again (a wire-protocol portal not yet drained) keeps its object.
     */
    private PointLookupResult resultOf(Batch row) {
        PointLookupResult result = lastResult;
        if (result == null || !result.closed) {
            result = new PointLookupResult(columns);
            lastResult = result;
        }
        result.start(row);
        return result;
    }

    /** The at most one row of a point lookup. */
    private static final class PointLookupResult implements Result {
        private final List<ResultColumn> columns;
        private Batch row;
        private long rowCount;
        private boolean done;
        /** Set by {@link #close()}: the caller is finished with this result, which may then be reused. */
        private boolean closed;

        PointLookupResult(List<ResultColumn> columns) {
            this.columns = columns;
        }

        /** Makes this the result of an execution that found {@code found} (null: no row). */
        void start(Batch found) {
            row = found;
            rowCount = 0;
            done = false;
            closed = false;
        }

        @Override
        public List<ResultColumn> columns() {
            return columns;
        }

        @Override
        public boolean hasRows() {
            return true;
        }

        @Override
        public Batch nextBatch() {
            if (done) {
                return null;
            }
            done = true;
            Batch batch = row;
            row = null;
            rowCount = batch == null ? 0 : 1;
            return batch;
        }

        @Override
        public String commandTag() {
            return "SELECT " + rowCount;
        }

        @Override
        public long rowCount() {
            return rowCount;
        }

        @Override
        public List<String> notices() {
            return List.of();
        }

        /**
         * Only marks the result reusable: there is nothing to stop or free, and a second close of a
         * result already reused (idempotent close, e.g. by a wrapper and its owner) must not end
         * the delivery of the later execution's row.
         */
        @Override
        public void close() {
            closed = true;
        }
    }
}
