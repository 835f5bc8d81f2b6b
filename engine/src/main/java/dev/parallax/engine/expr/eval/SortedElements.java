package dev.parallax.engine.expr.eval;

import dev.parallax.engine.sort.ValueOrder;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;

/**
 * The non-NULL elements of one encoded array in sort order, as indices into the array: what the
 * final step of an ordered-set aggregate (mode, percentile_cont, percentile_disc) reads, as
 * PostgreSQL's reads its tuplesort. The elements are compared in {@code ORDER BY}'s order
 * ({@link ValueOrder#compareElements}: -0 and 0 equal, NaN last, char(n) without its blanks). The
 * index arrays are reused from array to array, grown to the largest seen.
 */
final class SortedElements {
    private int[] indices = new int[0];
    private int[] mergeScratch = new int[0];

    /**
     * Sorts the non-NULL elements of the array of {@code element}s at {@code offset} of
     * {@code data}, ascending or {@code descending} (equal elements keep their order), and returns
     * how many there are; {@link #index} then reads them in that order.
     */
    int sort(DataType element, byte[] data, int offset, boolean descending) {
        int count = ArrayValue.count(data, offset);
        if (indices.length < count) {
            indices = new int[count];
            mergeScratch = new int[count];
        }
        int valueCount = 0;
        for (int index = 0; index < count; index++) {
            if (!ArrayValue.isNull(data, offset, index)) {
                indices[valueCount++] = index;
            }
        }
        sortIndices(element, data, offset, 0, valueCount, descending);
        return valueCount;
    }

    /** The array index of the {@code rank}-th element (from 0) in sort order. */
    int index(int rank) {
        return indices[rank];
    }

    /** Merge sort of {@code indices[from, to)} by the elements they index (no boxing: Arrays.sort has no int comparator). */
    private void sortIndices(DataType element, byte[] data, int offset, int from, int to, boolean descending) {
        if (to - from < 2) {
            return;
        }
        int middle = (from + to) >>> 1;
        sortIndices(element, data, offset, from, middle, descending);
        sortIndices(element, data, offset, middle, to, descending);
        int left = from;
        int right = middle;
        int out = from;
        while (left < middle && right < to) {
            int order = ValueOrder.compareElements(element, data, offset, indices[left], data, offset, indices[right]);
            mergeScratch[out++] = (descending ? -order : order) <= 0 ? indices[left++] : indices[right++];
        }
        while (left < middle) {
            mergeScratch[out++] = indices[left++];
        }
        while (right < to) {
            mergeScratch[out++] = indices[right++];
        }
        System.arraycopy(mergeScratch, from, indices, from, to - from);
    }
}
