package dev.parallax.cli;

import dev.parallax.ResultColumn;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code \x auto}: expanded only when the aligned table is wider than the terminal and has several columns. */
class AutoExpandedResultPrinterTest {
    private static final PrintOptions AUTO = PrintOptions.defaults().withExpanded(ExpandedMode.AUTO);
    /** Aligned, this table is 18 columns wide (its rule line). */
    private static final String ALIGNED = """
             id |    name    \s
            ----+-------------
              7 | widgetworks
             12 |\s
            (2 rows)

            """;
    private static final String EXPANDED = """
            -[ RECORD 1 ]-----
            id   | 7
            name | widgetworks
            -[ RECORD 2 ]-----
            id   | 12
            name | (none)

            """;

    private static FakeResult twoColumns() {
        return FakeResult.rows(List.of(new ResultColumn("id", DataType.INTEGER), new ResultColumn("name", DataType.TEXT)),
                new String[] {"7", "widgetworks"}, new String[] {"12", null});
    }

    private static String print(PrintOptions options, int width, FakeResult result) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ResultPrinter.create(options, () -> width).print(result, out);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void alignedWhenItFits() {
        assertEquals(ALIGNED, print(AUTO, 18, twoColumns()));
    }

    @Test
    void expandedWhenWiderThanTheTerminal() {
        assertEquals(EXPANDED, print(AUTO.withNullDisplay("(none)"), 17, twoColumns()));
    }

    @Test
    void alignedWithoutTerminal() {
        assertEquals(ALIGNED, print(AUTO, 0, twoColumns()));
    }

    @Test
    void oneColumnStaysAligned() {
        FakeResult result = FakeResult.rows(List.of(new ResultColumn("name", DataType.TEXT)), new String[] {"widgetworks"});
        assertEquals("    name     \n-------------\n widgetworks\n(1 row)\n\n", print(AUTO, 5, result));
    }

    @Test
    void otherFormatsIgnoreAuto() {
        assertEquals("id,name\n7,widgetworks\n12,\n", print(AUTO.withFormat(OutputFormat.CSV), 5, twoColumns()));
    }
}
