package dev.parallax.cli;

import dev.parallax.ResultColumn;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Expected texts were produced by psql 15 against PostgreSQL 15 with the same values. */
class ResultPrinterTest {
    private static final PrintOptions ALIGNED = PrintOptions.defaults();

    private static ResultColumn column(String name, DataType type) {
        return new ResultColumn(name, type);
    }

    private static String[] row(String... values) {
        return values;
    }

    private static String print(PrintOptions options, FakeResult result) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ResultPrinter.create(options).print(result, out);
        out.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static PrintOptions format(OutputFormat format, boolean tuplesOnly) {
        return new PrintOptions(format, tuplesOnly, "|", false);
    }

    @Test
    void alignedCentersHeadersAndAlignsNumbersRight() {
        FakeResult result = FakeResult.rows(List.of(column("a", DataType.INTEGER), column("longname", DataType.TEXT),
                        column("n", DataType.INTEGER), column("num", DataType.decimal(3, 1)), column("b", DataType.BOOLEAN)),
                row("1", "x", null, "12.5", "t"));
        assertEquals("""
                 a | longname | n | num  | b\s
                ---+----------+---+------+---
                 1 | x        |   | 12.5 | t
                (1 row)

                """, print(ALIGNED, result));
    }

    @Test
    void alignedMultiLineValuesAndHeadersCarryPlusMarkers() {
        FakeResult result = FakeResult.rows(List.of(column("t", DataType.TEXT), column("multi\nline", DataType.INTEGER)),
                row("a\nbcd", "2"));
        assertEquals("""
                  t  | multi+
                     | line \s
                -----+-------
                 a  +|     2
                 bcd |\s
                (1 row)

                """, print(ALIGNED, result));
    }

    @Test
    void alignedPadsTheLastColumnOnlyBeforeAMarker() {
        FakeResult result = FakeResult.rows(List.of(column("n", DataType.INTEGER), column("t", DataType.TEXT),
                column("u", DataType.TEXT)), row("1", "ab\ncdef\n", "z"));
        assertEquals("""
                 n |  t   | u\s
                ---+------+---
                 1 | ab  +| z
                   | cdef+|\s
                   |      |\s
                (1 row)

                """, print(ALIGNED, result));
    }

    @Test
    void alignedMultiLineHeaderInANumericColumn() {
        FakeResult result = FakeResult.rows(List.of(column("a\nbb", DataType.DOUBLE), column("c", DataType.TEXT)),
                row("1.5", "w"));
        assertEquals("""
                  a +| c\s
                 bb  |  \s
                -----+---
                 1.5 | w
                (1 row)

                """, print(ALIGNED, result));
    }

    @Test
    void alignedCountsWideCharactersAsTwoColumns() {
        FakeResult result = FakeResult.rows(List.of(column("x", DataType.TEXT), column("y", DataType.INTEGER)),
                row("héllo日本", "1"));
        assertEquals("""
                     x     | y\s
                -----------+---
                 héllo日本 | 1
                (1 row)

                """, print(ALIGNED, result));
    }

    @Test
    void alignedEmptyResultAndNoColumns() {
        assertEquals("""
                 ?column?\s
                ----------
                (0 rows)

                """, print(ALIGNED, FakeResult.rows(List.of(column("?column?", DataType.INTEGER)))));
        assertEquals("--\n(1 row)\n\n", print(ALIGNED, FakeResult.rows(List.of(), row())));
    }

    @Test
    void alignedShowsControlCharactersLikePsql() {
        FakeResult result = FakeResult.rows(List.of(column("t", DataType.TEXT)), row("a\tb\rc\u0001"));
        assertEquals("""
                        t        \s
                ------------------
                 a       b\\rc\\x01
                (1 row)

                """, print(ALIGNED, result));
    }

    @Test
    void tuplesOnlyKeepsWidthsFromHeadersAndTheBlankLine() {
        FakeResult two = FakeResult.rows(List.of(column("a", DataType.INTEGER), column("b", DataType.TEXT)),
                row("1", "x"), row("22", "yy"));
        assertEquals("  1 | x\n 22 | yy\n\n", print(format(OutputFormat.ALIGNED, true), two));
        FakeResult one = FakeResult.rows(List.of(column("?column?", DataType.INTEGER)), row("2"));
        assertEquals("        2\n\n", print(format(OutputFormat.ALIGNED, true), one));
        assertEquals("\n", print(format(OutputFormat.ALIGNED, true), FakeResult.rows(List.of(column("a", DataType.INTEGER)))));
    }

    @Test
    void unalignedJoinsFieldsWithTheSeparator() {
        FakeResult result = FakeResult.rows(List.of(column("a", DataType.INTEGER), column("b", DataType.TEXT),
                column("c", DataType.TEXT)), row("1", "x|y", null));
        assertEquals("a|b|c\n1|x|y|\n(1 row)\n", print(format(OutputFormat.UNALIGNED, false), result));
        assertEquals("?column?\n(0 rows)\n",
                print(format(OutputFormat.UNALIGNED, false), FakeResult.rows(List.of(column("?column?", DataType.INTEGER)))));
        FakeResult tuples = FakeResult.rows(List.of(column("a", DataType.INTEGER), column("b", DataType.TEXT)), row("1", "x"));
        assertEquals("1|x\n", print(format(OutputFormat.UNALIGNED, true), tuples));
    }

    @Test
    void csvQuotesOnlyWhereNeeded() {
        FakeResult result = FakeResult.rows(List.of(column("a", DataType.INTEGER), column("b", DataType.TEXT),
                        column("c", DataType.TEXT), column("d", DataType.TEXT), column("e", DataType.TEXT),
                        column("f", DataType.TEXT), column("g", DataType.TEXT), column("h", DataType.TEXT)),
                row("1", "x,y", null, "", "q\"q", "l\nm", "\\.", " s "));
        assertEquals("a,b,c,d,e,f,g,h\n1,\"x,y\",,,\"q\"\"q\",\"l\nm\",\"\\.\", s \n",
                print(format(OutputFormat.CSV, false), result));
        FakeResult headers = FakeResult.rows(List.of(column("a b", DataType.INTEGER), column("c,d", DataType.INTEGER)),
                row("1", "2"));
        assertEquals("a b,\"c,d\"\n1,2\n", print(format(OutputFormat.CSV, false), headers));
        FakeResult again = FakeResult.rows(List.of(column("a b", DataType.INTEGER), column("c,d", DataType.INTEGER)),
                row("1", "2"));
        assertEquals("1,2\n", print(format(OutputFormat.CSV, true), again));
    }
}
