package dev.parallax.engine.storage;

import java.util.Arrays;

/**
 * Where on a page a row's variable-width bytes probably are, so that a point read loads their
 * cache line together with the row's other lines instead of after them. Their address is known
 * only once the row's offset has arrived, so without a guess a point read of a row with a text
 * column waits for one more miss, after all the others (in one JVM, a point select on 10M rows
 * of {@code id int, info text, crt_time timestamp}: 996 → 867 ns of CPU with the guess).
 *
 * <p>A page places one column's values at a linear function of the slot: rows appended one at a
 * time go down from the page's end, a row's values (of every variable-width column) below the
 * previous row's; rows written in one batch (a bulk load's page) go up, each column's values in a
 * block of their own. With values of like lengths, slot {@code r}'s bytes lie near {@code base +
 * r * stride}. A hint holds {@code base} and {@code stride} per page and column, learned from two
 * reads of the page (the line through two observed offsets); until then it holds the first
 * observation. A read whose value is not on the predicted line starts learning afresh (a page
 * rewritten by VACUUM, values of varied lengths). A page filled by many small batches (INSERTs of
 * a few rows each) holds as many blocks and is not linear: its reads keep learning and gain nothing.
 *
 * <p>A hint is only ever a guess: the read loads the guessed line (none when it falls outside the
 * page it is reading, which stays allocated meanwhile) and then reads the value from its true
 * offset, so a wrong hint costs one useless load. Threads therefore read and update hints without
 * synchronization, and a hint lost to a race or to the array being replaced is learned again.
 *
 * <p>Encoding of a hint (a {@code long}): 0 none; negative: one observation, slot in bits 32–62 and
 * offset in bits 0–31; positive: {@code base} in the high 32 bits and {@code stride} in 1/256 bytes
 * in the low 32 (base, a page offset past the page header, is never 0).
 */
final class HeapPositionHints {
    /** No page's hints yet. */
    static final long[] NONE = new long[0];
    /**
     * The most hints a table keeps (32 MiB): past them (a table of millions of pages, a hint per
     * page and column) its further pages are read without a guess.
     */
    static final int MAX_HINTS = 1 << 22;

    private HeapPositionHints() {
    }

    /** Where the hint of {@code column} of page {@code pageIndex} lives in a table's hints of {@code columnCount} columns. */
    static long index(int pageIndex, int columnCount, int column) {
        return (long) pageIndex * columnCount + column;
    }

    /** {@code hints}' element {@code index}, or 0 (none) past its end. */
    static long hint(long[] hints, long index) {
        return index < hints.length ? hints[(int) index] : 0;
    }

    /** The page offset {@code hint} predicts for slot {@code row}'s value, or -1 when it predicts none. */
    static long predictedOffset(long hint, int row) {
        if (hint <= 0) {
            return -1;
        }
        return (hint >> 32) + (((long) row * (int) hint) >> 8);
    }

    /** The predicted value's length in bytes, for deciding whether it may reach into the next line. */
    static int predictedLength(long hint) {
        return Math.abs((int) hint) >> 8;
    }

    /** Whether the value at page offset {@code actual} lies on the line the hint predicted at {@code predicted} (-1: none). */
    static boolean onPredictedLine(long predicted, int actual) {
        return predicted >= 0 && (predicted >>> 6) == (actual >>> 6);
    }

    /**
     * The hint after a read found slot {@code row}'s value at page offset {@code actual} (of a page
     * of {@code pageSizeBytes}) where {@code hint} did not predict it: the line through this
     * observation and the one {@code hint} holds, or this observation alone.
     */
    static long learned(long hint, int row, int actual, int pageSizeBytes) {
        if (hint < 0) {
            int firstRow = (int) (hint >>> 32) & 0x7FFF_FFFF;
            int firstOffset = (int) hint;
            if (firstRow != row) {
                long stride = (((long) actual - firstOffset) << 8) / (row - firstRow);
                long base = actual - ((row * stride) >> 8);
                if (base > 0 && base < pageSizeBytes && stride == (int) stride) {
                    return base << 32 | (stride & 0xFFFF_FFFFL);
                }
            }
        }
        return observation(row, actual);
    }

    private static long observation(int row, int offset) {
        return Long.MIN_VALUE | (long) row << 32 | (offset & 0xFFFF_FFFFL);
    }

    /**
     * {@code hints} with element {@code index} set to {@code hint}: the same array, or a larger copy
     * when it is too short (the caller keeps it); unchanged past {@link #MAX_HINTS}. Hints that other
     * threads store into the old array meanwhile are lost, which only means learning them again.
     */
    static long[] with(long[] hints, long index, long hint) {
        if (index >= MAX_HINTS) {
            return hints;
        }
        long[] target = hints;
        if (index >= target.length) {
            target = Arrays.copyOf(hints, (int) Math.min(MAX_HINTS, Math.max(index + 1, Math.max(16, 2L * hints.length))));
        }
        target[(int) index] = hint;
        return target;
    }
}
