package dev.parallax.engine.sort;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SorterTest {
    private static final long MEGABYTE = 1024 * 1024;

    @TempDir
    Path temporaryRoot;

    private SortOptions inMemory() {
        return new SortOptions(64 * MEGABYTE, true, temporaryRoot);
    }

    /** The smallest work_mem PostgreSQL accepts: forces runs on a few thousand rows. */
    private SortOptions spilling() {
        return new SortOptions(64 * 1024, true, temporaryRoot);
    }

    static Stream<DataType> types() {
        return Stream.of(DataType.BOOLEAN, DataType.SMALLINT, DataType.INTEGER, DataType.BIGINT, DataType.decimal(12, 2),
                DataType.DATE, DataType.TIMESTAMP, DataType.REAL, DataType.DOUBLE, DataType.TEXT, DataType.varchar(20),
                DataType.charType(12), DataType.bit(10), DataType.varbit(24));
    }

    @ParameterizedTest
    @MethodSource("types")
    void everyTypeOrdersWithNullsInEveryDirectionAndMethod(DataType type) throws IOException {
        Random random = new Random(type.hashCode());
        List<DataType> types = List.of(type, DataType.INTEGER);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 6000; row++) {
            rows.add(new Object[] {random.nextInt(10) == 0 ? null : randomValue(type, random), (long) row});
        }
        for (boolean descending : new boolean[] {false, true}) {
            for (boolean nullsFirst : new boolean[] {false, true}) {
                List<SortKey> keys = List.of(new SortKey(0, descending, nullsFirst));
                List<List<Object>> expected = SortRows.reference(types, keys, -1, rows);
                String label = type + (descending ? " DESC" : " ASC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
                assertEquals(expected, SortRows.sortWith(types, keys, -1, inMemory(), rows, 1000), label + " with prefix keys");
                assertEquals(expected, SortRows.sortWith(types, keys, -1, inMemory().withAbbreviatedKeys(false), rows, 1000),
                        label + " without prefix keys");
                assertEquals(expected, SortRows.sortWith(types, keys, -1, spilling(), rows, 500), label + " spilled");
                assertEquals(expected.subList(0, 77), SortRows.sortWith(types, keys, 77, inMemory(), rows, 1000), label + " top-N");
            }
        }
        assertNoTemporaryFiles();
    }

    private static Object randomValue(DataType type, Random random) {
        return switch (type.kind()) {
            case BOOLEAN -> (long) random.nextInt(2);
            case SMALLINT -> (long) (random.nextInt(65536) - 32768);
            case INTEGER -> random.nextBoolean() ? (long) random.nextInt() : (long) random.nextInt(50) - 25;
            case BIGINT, TIMESTAMP -> random.nextBoolean() ? random.nextLong() : random.nextLong(100) - 50;
            case DECIMAL -> random.nextLong(2_000_000_000_000L) - 1_000_000_000_000L;
            case DATE -> (long) random.nextInt(200_000) - 100_000;
            case REAL, DOUBLE -> switch (random.nextInt(12)) {
                case 0 -> Double.NaN;
                case 1 -> -0.0;
                case 2 -> 0.0;
                case 3 -> Double.POSITIVE_INFINITY;
                case 4 -> Double.NEGATIVE_INFINITY;
                default -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 10);
            };
            case TEXT, VARCHAR -> randomText(random, 0, 20);
            case CHAR -> padded(randomText(random, 0, 12), 12);
            case BIT -> randomBits(random, 10, 10);
            case VARBIT -> randomBits(random, 0, 24);
            default -> throw new AssertionError(type);
        };
    }

    /** Text over few symbols (some multibyte, some blanks) so prefixes collide at every length. */
    private static String randomText(Random random, int minimumLength, int maximumLength) {
        String[] symbols = {"a", "b", "é", "中", " ", "z", "\u0001"};
        StringBuilder text = new StringBuilder(random.nextBoolean() ? "abcdefg" : "");
        int length = minimumLength + random.nextInt(maximumLength - minimumLength + 1) - text.length();
        for (int index = 0; index < length; index++) {
            text.append(symbols[random.nextInt(symbols.length)]);
        }
        return text.toString();
    }

    private static String padded(String value, int length) {
        String cut = value.length() > length ? value.substring(0, length) : value;
        return cut + " ".repeat(length - cut.length());
    }

    private static String randomBits(Random random, int minimumLength, int maximumLength) {
        int length = minimumLength + random.nextInt(maximumLength - minimumLength + 1);
        StringBuilder bits = new StringBuilder();
        for (int index = 0; index < length; index++) {
            bits.append(random.nextInt(4) == 0 ? '1' : '0');
        }
        return bits.toString();
    }

    @Test
    void doublesOrderAsPostgresqlWithNaNAboveInfinityAndNegativeZeroEqualToZero() {
        List<DataType> types = List.of(DataType.DOUBLE, DataType.INTEGER);
        List<Object[]> rows = rowsOf(new Object[][] {{Double.NaN, 0L}, {1.0, 1L}, {0.0, 2L}, {null, 3L}, {Double.NEGATIVE_INFINITY, 4L},
                {-0.0, 5L}, {Double.POSITIVE_INFINITY, 6L}, {-1.5, 7L}, {Double.NaN, 8L}});
        List<List<Object>> sorted = SortRows.sortWith(types, List.of(new SortKey(0, false, false)), -1, inMemory(), rows, 4);
        assertEquals(List.of(4L, 7L, 2L, 5L, 1L, 6L, 0L, 8L, 3L), secondColumn(sorted));
        List<List<Object>> descending = SortRows.sortWith(types, List.of(new SortKey(0, true, true)), -1, inMemory(), rows, 4);
        assertEquals(List.of(3L, 0L, 8L, 6L, 1L, 2L, 5L, 7L, 4L), secondColumn(descending));
    }

    @Test
    void charIgnoresTrailingBlanksLikeBpchar() {
        List<DataType> types = List.of(DataType.charType(3), DataType.INTEGER);
        // Compared with their blanks, "a  " would sort after "a\u0001 " (0x20 > 0x01); bpchar strips them first.
        List<Object[]> rows = rowsOf(new Object[][] {{"ab ", 0L}, {"a\u0001 ", 1L}, {"a  ", 2L}, {"   ", 3L}, {"a  ", 4L}});
        List<List<Object>> sorted = SortRows.sortWith(types, List.of(new SortKey(0, false, false)), -1, inMemory(), rows, 10);
        assertEquals(List.of(3L, 2L, 4L, 1L, 0L), secondColumn(sorted));
    }

    @Test
    void stringsSharingALongPrefixSortByTheirTailAndAbandonPrefixKeys() {
        List<DataType> types = List.of(DataType.TEXT, DataType.INTEGER);
        String common = "x".repeat(100);
        Random random = new Random(7);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 20_000; row++) {
            rows.add(new Object[] {common + Integer.toString(random.nextInt(1_000_000), 36), (long) row});
        }
        List<SortKey> keys = List.of(new SortKey(0, false, false));
        try (Sorter sorter = new Sorter(types, keys, -1, inMemory())) {
            SortRows.toBatches(types, rows, 4096).forEach(sorter::add);
            assertEquals(SortRows.reference(types, keys, -1, rows), SortRows.drain(sorter.finish()));
            assertTrue(sorter.statistics().abbreviationAbandoned(), "all prefixes equal while the keys differ");
        }
    }

    @Test
    void distinctPrefixesAreNotAbandonedAndRepeatedStringsStayInInputOrder() {
        List<DataType> types = List.of(DataType.TEXT, DataType.INTEGER);
        List<Object[]> repeated = new ArrayList<>();
        List<Object[]> distinct = new ArrayList<>();
        for (int row = 0; row < 20_000; row++) {
            repeated.add(new Object[] {"1".repeat(60), (long) row});
            distinct.add(new Object[] {Integer.toHexString(row * 0x9E3779B1), (long) row});
        }
        List<SortKey> keys = List.of(new SortKey(0, false, false));
        try (Sorter sorter = new Sorter(types, keys, -1, inMemory())) {
            SortRows.toBatches(types, repeated, 4096).forEach(sorter::add);
            assertEquals(SortRows.reference(types, keys, -1, repeated), SortRows.drain(sorter.finish()));
            assertFalse(sorter.statistics().abbreviationAbandoned(), "prefixes as distinct as the keys");
        }
        try (Sorter sorter = new Sorter(types, keys, -1, inMemory())) {
            SortRows.toBatches(types, distinct, 4096).forEach(sorter::add);
            assertEquals(SortRows.reference(types, keys, -1, distinct), SortRows.drain(sorter.finish()));
            assertFalse(sorter.statistics().abbreviationAbandoned());
        }
    }

    @ParameterizedTest
    @MethodSource("types")
    void presortedInputOfEveryTypeIsKeptInOrderWithoutSortingInMemoryAndSpilled(DataType type) throws IOException {
        Random random = new Random(type.hashCode() + 1);
        List<DataType> types = List.of(type, DataType.INTEGER);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 6000; row++) {
            // Few distinct values: long runs of ties whose input order (the second column) must survive.
            rows.add(new Object[] {random.nextInt(10) == 0 ? null : randomValue(type, new Random(random.nextInt(5))), (long) row});
        }
        for (boolean descending : new boolean[] {false, true}) {
            for (boolean nullsFirst : new boolean[] {false, true}) {
                List<SortKey> keys = List.of(new SortKey(0, descending, nullsFirst));
                List<Object[]> presorted = new ArrayList<>(rows);
                presorted.sort(SortRows.referenceOrder(types, keys));
                List<List<Object>> expected = SortRows.reference(types, keys, -1, presorted);
                String label = type + (descending ? " DESC" : " ASC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
                for (SortOptions options : List.of(inMemory(), inMemory().withAbbreviatedKeys(false), spilling())) {
                    try (Sorter sorter = new Sorter(types, keys, -1, options)) {
                        SortRows.toBatches(types, presorted, 700).forEach(sorter::add);
                        assertEquals(expected, SortRows.drain(sorter.finish()), label);
                        assertEquals(sorter.statistics().method() == SortMethod.EXTERNAL_MERGE ? sorter.statistics().runCount() : 1,
                                sorter.presortedRuns(), label + ": every run arrived in order");
                    }
                }
            }
        }
        assertNoTemporaryFiles();
    }

    @Test
    void oneRepeatedStringIsPresortedAndKeepsInputOrderThroughSpillAndTopN() throws IOException {
        List<DataType> types = List.of(DataType.TEXT, DataType.INTEGER);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 30_000; row++) {
            rows.add(new Object[] {"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01234567", (long) row});
        }
        List<SortKey> keys = List.of(new SortKey(0, false, false));
        try (Sorter sorter = new Sorter(types, keys, -1, spilling())) {
            SortRows.toBatches(types, rows, 4096).forEach(sorter::add);
            List<List<Object>> sorted = SortRows.drain(sorter.finish());
            assertEquals(SortRows.reference(types, keys, -1, rows), sorted);
            assertEquals(rowNumbers(30_000), secondColumn(sorted), "equal keys keep their input order");
            assertTrue(sorter.statistics().runCount() > 2, "runs: " + sorter.statistics().runCount());
            assertEquals(sorter.statistics().runCount(), sorter.presortedRuns());
        }
        // Past work_mem the top-N heap becomes a buffer; its rows are then in heap order, not input order.
        assertEquals(SortRows.reference(types, keys, 20_000, rows), SortRows.sortWith(types, keys, 20_000, spilling(), rows, 4096));
        assertNoTemporaryFiles();
    }

    @Test
    void aDescentAnywhereInTheInputStillSorts() {
        List<DataType> types = List.of(DataType.BIGINT, DataType.INTEGER);
        List<SortKey> keys = List.of(new SortKey(0, false, false));
        // The descent within a batch, at the boundary between two batches, and at the very last row.
        for (int descentAt : new int[] {1, 500, 1000, 2999}) {
            List<Object[]> rows = new ArrayList<>();
            for (int row = 0; row < 3000; row++) {
                rows.add(new Object[] {row == descentAt ? -1L : (long) row / 3, (long) row});
            }
            try (Sorter sorter = new Sorter(types, keys, -1, inMemory())) {
                SortRows.toBatches(types, rows, 500).forEach(sorter::add);
                assertEquals(SortRows.reference(types, keys, -1, rows), SortRows.drain(sorter.finish()), "descent at " + descentAt);
                assertEquals(0, sorter.presortedRuns(), "descent at " + descentAt);
            }
        }
    }

    @Test
    void multipleKeysResolveTiesBeyondThePrefix() {
        List<DataType> types = List.of(DataType.TEXT, DataType.INTEGER, DataType.INTEGER, DataType.DOUBLE, DataType.BIGINT);
        Random random = new Random(11);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 30_000; row++) {
            rows.add(new Object[] {"prefix-" + random.nextInt(5), random.nextInt(20) == 0 ? null : (long) random.nextInt(7),
                    (long) random.nextInt(3) - 1, random.nextInt(4) * 0.5, (long) row});
        }
        List<List<SortKey>> keyLists = List.of(
                List.of(new SortKey(0, false, false), new SortKey(1, true, true), new SortKey(3, false, false)),
                List.of(new SortKey(1, false, false), new SortKey(2, false, false)),
                List.of(new SortKey(2, true, true), new SortKey(1, false, true), new SortKey(0, true, true), new SortKey(3, true, false)));
        for (List<SortKey> keys : keyLists) {
            List<List<Object>> expected = SortRows.reference(types, keys, -1, rows);
            assertEquals(expected, SortRows.sortWith(types, keys, -1, inMemory(), rows, 4096), keys.toString());
            assertEquals(expected, SortRows.sortWith(types, keys, -1, spilling(), rows, 4096), keys + " spilled");
            assertEquals(expected.subList(0, 1000), SortRows.sortWith(types, keys, 1000, inMemory(), rows, 4096), keys + " top-N");
        }
    }

    @Test
    void twoIntegerKeysPackIntoOneCompletePrefix() {
        List<DataType> types = List.of(DataType.INTEGER, DataType.INTEGER);
        List<Object[]> rows = rowsOf(new Object[][] {{(long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE},
                {(long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE}, {0L, 0L}, {0L, -1L}});
        Batch batch = SortRows.toBatches(types, rows, 4).getFirst();
        List<SortKey> keys = List.of(new SortKey(0, false, false), new SortKey(1, true, false));
        PrefixKeyEncoder encoder = PrefixKeyEncoder.plan(batch, 4, keys);
        assertTrue(encoder.isComplete(), "two full-range ints need 64 bits without NULLs");
        long[] prefixes = new long[4];
        encoder.encode(batch, 4, prefixes);
        assertTrue(Long.compareUnsigned(prefixes[1], prefixes[2]) < 0);
        assertTrue(Long.compareUnsigned(prefixes[2], prefixes[3]) < 0, "second key descending: 0 before -1");
        assertTrue(Long.compareUnsigned(prefixes[3], prefixes[0]) < 0);
        batch.column(1).setNull(2);
        assertFalse(PrefixKeyEncoder.plan(batch, 4, keys).isComplete(), "a null bit leaves no room for all of the second key");
    }

    @Test
    void prefixesNeverContradictTheFullOrder() {
        List<DataType> types = List.of(DataType.TEXT, DataType.BIGINT, DataType.DOUBLE);
        Random random = new Random(3);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 2000; row++) {
            rows.add(new Object[] {random.nextInt(8) == 0 ? null : randomText(random, 0, 10),
                    random.nextInt(8) == 0 ? null : random.nextLong(), (double) random.nextInt(3)});
        }
        Batch batch = SortRows.toBatches(types, rows, rows.size()).getFirst();
        for (List<SortKey> keys : List.of(List.of(new SortKey(1, true, false), new SortKey(0, false, true)),
                List.of(new SortKey(2, false, false), new SortKey(0, true, true)), List.of(new SortKey(0, true, false)))) {
            PrefixKeyEncoder encoder = PrefixKeyEncoder.plan(batch, rows.size(), keys);
            long[] prefixes = new long[rows.size()];
            encoder.encode(batch, rows.size(), prefixes);
            RowComparator comparator = RowComparator.create(batch, keys);
            for (int pair = 0; pair < 20_000; pair++) {
                int left = random.nextInt(rows.size());
                int right = random.nextInt(rows.size());
                int prefixOrder = Long.compareUnsigned(prefixes[left], prefixes[right]);
                int fullOrder = comparator.compare(left, right);
                if (prefixOrder != 0) {
                    assertEquals(Integer.signum(prefixOrder), Integer.signum(fullOrder), keys + " rows " + left + ", " + right);
                }
            }
        }
    }

    @Test
    void spillWritesRunsAndMergesToExactlyTheInMemoryResult() throws IOException {
        List<DataType> types = List.of(DataType.varchar(40), DataType.BIGINT, DataType.DOUBLE);
        Random random = new Random(5);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 40_000; row++) {
            rows.add(new Object[] {random.nextInt(30) == 0 ? null : Long.toHexString(random.nextLong()), (long) random.nextInt(100),
                    random.nextDouble()});
        }
        List<SortKey> keys = List.of(new SortKey(1, false, false), new SortKey(0, true, true));
        List<List<Object>> inMemory = SortRows.sortWith(types, keys, -1, inMemory(), rows, 2048);
        try (Sorter sorter = new Sorter(types, keys, -1, spilling())) {
            SortRows.toBatches(types, rows, 2048).forEach(sorter::add);
            assertNotNull(sorter.temporaryDirectoryOrNull());
            assertTrue(sorter.temporaryDirectoryOrNull().getFileName().toString().startsWith("parallax-sort-"));
            assertEquals(inMemory, SortRows.drain(sorter.finish()));
            SortStatistics statistics = sorter.statistics();
            assertEquals(SortMethod.EXTERNAL_MERGE, statistics.method());
            assertTrue(statistics.runCount() > 5, "runs: " + statistics.runCount());
            assertTrue(statistics.diskBytes() > 40_000L * 24, "disk bytes: " + statistics.diskBytes());
            assertEquals(40_000, statistics.inputRows());
            assertEquals("Sort Method: external merge  Disk: " + (statistics.diskBytes() + 1023) / 1024 + "kB", statistics.explainLine());
            assertNoTemporaryFiles(); // removed as soon as the merged output was read to its end
        }
        assertEquals(inMemory, SortRows.reference(types, keys, -1, rows));
    }

    @Test
    void anExpectedRowCountThatIsWrongEitherWayChangesNoResultInMemoryOrSpilled() throws IOException {
        List<DataType> types = List.of(DataType.TEXT, DataType.BIGINT);
        Random random = new Random(31);
        List<Object[]> rows = new ArrayList<>();
        // Enough rows to pass the size after which the buffer is sized for the estimate; the texts
        // grow longer halfway so the width measured at that point is too small for later rows.
        int count = (int) (Sorter.PRESIZE_AFTER_BYTES / 30);
        for (int row = 0; row < count; row++) {
            String text = random.nextInt(50) == 0 ? null : Long.toHexString(random.nextLong()).repeat(row < count / 2 ? 1 : 3);
            rows.add(new Object[] {text, (long) row});
        }
        List<SortKey> keys = List.of(new SortKey(0, true, false));
        List<List<Object>> expected = SortRows.reference(types, keys, -1, rows);
        for (long expectedRows : new long[] {1, count / 4, count, 100L * count}) {
            for (SortOptions options : new SortOptions[] {inMemory(), inMemory().withWorkMemBytes(6 * MEGABYTE)}) {
                try (Sorter sorter = new Sorter(types, keys, -1, options)) {
                    sorter.expectInputRows(expectedRows);
                    SortRows.toBatches(types, rows, 4096).forEach(sorter::add);
                    assertEquals(expected, SortRows.drain(sorter.finish()), "expected rows " + expectedRows + ", " + options);
                    assertEquals(options.workMemBytes() < 64 * MEGABYTE ? SortMethod.EXTERNAL_MERGE : SortMethod.QUICKSORT, sorter.statistics().method());
                }
            }
        }
        assertNoTemporaryFiles();
    }

    @Test
    void temporaryFilesAreRemovedWhenTheOutputIsClosedEarly() throws IOException {
        List<DataType> types = List.of(DataType.BIGINT);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 50_000; row++) {
            rows.add(new Object[] {(long) (row * 7919 % 50_000)});
        }
        Sorter sorter = new Sorter(types, List.of(new SortKey(0, false, false)), -1, spilling());
        SortRows.toBatches(types, rows, 4096).forEach(sorter::add);
        SortedOutput output = sorter.finish();
        Batch first = output.next();
        assertEquals(0L, ((LongVector) first.column(0)).get(first.position(0)));
        assertEquals(1, countTemporaryDirectories());
        output.close();
        assertNoTemporaryFiles();
    }

    @Test
    void temporaryFilesAreRemovedWhenTheSortFails() throws IOException {
        List<DataType> types = List.of(DataType.TEXT);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 20_000; row++) {
            rows.add(new Object[] {"row " + row});
        }
        Sorter sorter = new Sorter(types, List.of(new SortKey(0, false, false)), -1, spilling());
        SortRows.toBatches(types, rows, 4096).forEach(sorter::add);
        assertEquals(1, countTemporaryDirectories());
        // A batch whose column is not the declared type makes materialization fail mid-sort.
        Batch wrong = Batch.create(List.of(DataType.BIGINT), 1);
        ((LongVector) wrong.column(0)).set(0, 1);
        wrong.setRowCount(1);
        assertThrows(ClassCastException.class, () -> sorter.add(wrong));
        assertNoTemporaryFiles();
        assertThrows(IllegalStateException.class, sorter::finish);
    }

    @Test
    void topNEqualsTheFullSortCutAtTheLimit() {
        List<DataType> types = List.of(DataType.INTEGER, DataType.TEXT);
        Random random = new Random(9);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 100_000; row++) {
            rows.add(new Object[] {(long) random.nextInt(1000), "v" + row});
        }
        List<SortKey> keys = List.of(new SortKey(0, true, false));
        List<List<Object>> full = SortRows.sortWith(types, keys, -1, inMemory(), rows, 4096);
        for (int limit : new int[] {1, 10, 100, 5000}) {
            try (Sorter sorter = new Sorter(types, keys, limit, inMemory())) {
                SortRows.toBatches(types, rows, 4096).forEach(sorter::add);
                assertEquals(full.subList(0, limit), SortRows.drain(sorter.finish()), "limit " + limit);
                SortStatistics statistics = sorter.statistics();
                assertEquals(SortMethod.TOP_N_HEAPSORT, statistics.method());
                assertTrue(statistics.explainLine().matches("Sort Method: top-N heapsort  Memory: \\d+kB"), statistics.explainLine());
            }
        }
        // A limit whose rows outgrow work_mem leaves the heap for an ordinary (spilling) sort.
        try (Sorter sorter = new Sorter(types, keys, 60_000, spilling())) {
            SortRows.toBatches(types, rows, 4096).forEach(sorter::add);
            assertEquals(full.subList(0, 60_000), SortRows.drain(sorter.finish()));
            assertEquals(SortMethod.EXTERNAL_MERGE, sorter.statistics().method());
        }
        assertEquals(List.of(), SortRows.sortWith(types, keys, 0, inMemory(), rows, 4096));
    }

    @Test
    void inMemorySortReportsQuicksortAndHonoursSelections() {
        List<DataType> types = List.of(DataType.BIGINT);
        Batch batch = Batch.create(types, 6);
        long[] values = {5, 1, 4, 2, 3, 0};
        for (int index = 0; index < values.length; index++) {
            ((LongVector) batch.column(0)).set(index, values[index]);
        }
        batch.setRowCount(6);
        batch.setSelection(new int[] {0, 2, 3, 5}, 4);
        try (Sorter sorter = new Sorter(types, List.of(new SortKey(0, false, false)), -1, inMemory())) {
            sorter.add(batch);
            assertEquals(List.of(List.of(0L), List.of(2L), List.of(4L), List.of(5L)), SortRows.drain(sorter.finish()));
            SortStatistics statistics = sorter.statistics();
            assertEquals(SortMethod.QUICKSORT, statistics.method());
            assertEquals(4, statistics.inputRows());
            assertEquals("Sort Method: quicksort  Memory: 1kB", statistics.explainLine());
        }
    }

    @Test
    void mergerInterleavesSortedStreamsStably() {
        List<DataType> types = List.of(DataType.TEXT, DataType.INTEGER);
        Random random = new Random(13);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 9000; row++) {
            rows.add(new Object[] {random.nextInt(10) == 0 ? null : randomText(random, 0, 9), (long) row});
        }
        List<SortKey> keys = List.of(new SortKey(0, true, false));
        List<SortedOutput> streams = new ArrayList<>();
        for (int part = 0; part < 3; part++) {
            Sorter sorter = new Sorter(types, keys, -1, inMemory());
            SortRows.toBatches(types, rows.subList(part * 3000, part * 3000 + 3000), 700).forEach(sorter::add);
            streams.add(sorter.finish());
        }
        streams.add(new Sorter(types, keys, -1, inMemory()).finish()); // an empty stream
        List<List<Object>> merged = SortRows.drain(new SortedStreamMerger(types, keys, streams));
        assertEquals(SortRows.reference(types, keys, -1, rows), merged);
    }

    @Test
    void mergerTakesLongRunsFromOneStreamInOrderAndStably() {
        List<DataType> types = List.of(DataType.TEXT, DataType.INTEGER);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 12000; row++) {
            int part = row / 3000;
            String key = switch (part) {
                case 0 -> "same";                                           // all equal: stream order decides
                case 1 -> row % 3000 < 1500 ? "same" : "same" + (row % 7);  // a long tie, then a few values
                case 2 -> row % 500 == 0 ? null : "k" + (row % 3000) / 600; // runs of 600, some NULLs
                default -> "same";
            };
            rows.add(new Object[] {key, (long) row});
        }
        for (boolean descending : new boolean[] {false, true}) {
            List<SortKey> keys = List.of(new SortKey(0, descending, descending));
            List<SortedOutput> streams = new ArrayList<>();
            for (int part = 0; part < 4; part++) {
                Sorter sorter = new Sorter(types, keys, -1, inMemory());
                SortRows.toBatches(types, rows.subList(part * 3000, part * 3000 + 3000), 700).forEach(sorter::add);
                streams.add(sorter.finish());
            }
            assertEquals(SortRows.reference(types, keys, -1, rows), SortRows.drain(new SortedStreamMerger(types, keys, streams)),
                    descending ? "DESC" : "ASC");
        }
    }

    private static List<Object[]> rowsOf(Object[][] rows) {
        return new ArrayList<>(Arrays.asList(rows));
    }

    private static List<Object> rowNumbers(int count) {
        List<Object> values = new ArrayList<>(count);
        for (long value = 0; value < count; value++) {
            values.add(value);
        }
        return values;
    }

    private static List<Object> secondColumn(List<List<Object>> rows) {
        return rows.stream().map(row -> row.get(1)).toList();
    }

    private long countTemporaryDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(temporaryRoot)) {
            return entries.filter(path -> path.getFileName().toString().startsWith("parallax-sort-")).count();
        }
    }

    private void assertNoTemporaryFiles() throws IOException {
        try (Stream<Path> entries = Files.list(temporaryRoot)) {
            assertEquals(List.of(), entries.toList(), "temporary files left behind");
        }
    }
}
