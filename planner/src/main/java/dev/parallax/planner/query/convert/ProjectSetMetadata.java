package dev.parallax.planner.query.convert;

import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * What Calcite's metadata may assume of a {@link ProjectSetRel}: any number of rows, and no
 * column set unique. Without it a ProjectSet over one row passes for one row, and the RelBuilder
 * drops a DISTINCT above it as already unique ({@code SELECT DISTINCT generate_series(1, 3) % 2}).
 */
public final class ProjectSetMetadata {
    public static final RelMetadataProvider SOURCE = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new MaxRowCount(), BuiltInMetadata.MaxRowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new ColumnUniqueness(), BuiltInMetadata.ColumnUniqueness.Handler.class)));

    private ProjectSetMetadata() {
    }

    /** Unbounded: each input row gives as many rows as its calls yield. */
    public static final class MaxRowCount implements MetadataHandler<BuiltInMetadata.MaxRowCount> {
        @Override
        public MetadataDef<BuiltInMetadata.MaxRowCount> getDef() {
            return BuiltInMetadata.MaxRowCount.DEF;
        }

        public Double getMaxRowCount(ProjectSetRel projectSet, RelMetadataQuery mq) {
            return Double.POSITIVE_INFINITY;
        }
    }

    /** No columns unique: an input row repeats once per value, and the values may repeat. */
    public static final class ColumnUniqueness implements MetadataHandler<BuiltInMetadata.ColumnUniqueness> {
        @Override
        public MetadataDef<BuiltInMetadata.ColumnUniqueness> getDef() {
            return BuiltInMetadata.ColumnUniqueness.DEF;
        }

        public Boolean areColumnsUnique(ProjectSetRel projectSet, RelMetadataQuery mq, ImmutableBitSet columns, boolean ignoreNulls) {
            return false;
        }
    }
}
