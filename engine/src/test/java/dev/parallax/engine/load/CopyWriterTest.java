package dev.parallax.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** COPY TO's line formats: PostgreSQL 15's output for the same values (checked with psql's COPY ... TO STDOUT). */
class CopyWriterTest {
    private static final String[] TEXTS = {"plain", "tab\there", "back\\slash", "new\nline", "", null, "comma, \"quoted\"", "\\."};

    private static Batch batch() {
        Batch batch = Batch.create(List.of(DataType.INTEGER, DataType.TEXT), TEXTS.length);
        LongVector ids = (LongVector) batch.column(0);
        BytesVector texts = (BytesVector) batch.column(1);
        for (int row = 0; row < TEXTS.length; row++) {
            ids.set(row, row + 1);
            if (TEXTS[row] == null) {
                texts.setNull(row);
            } else {
                texts.set(row, TEXTS[row].getBytes(StandardCharsets.UTF_8));
            }
        }
        batch.setRowCount(TEXTS.length);
        return batch;
    }

    private static String write(CopyFormat format) throws IOException {
        StringWriter out = new StringWriter();
        CopyWriter writer = new CopyWriter(format, out);
        writer.writeHeader(List.of("id", "note"));
        assertEquals(TEXTS.length, writer.write(batch()));
        return out.toString();
    }

    @Test
    void textFormatEscapesBackslashesDelimitersAndLineBreaks() throws IOException {
        assertEquals("""
                1\tplain
                2\ttab\\there
                3\tback\\\\slash
                4\tnew\\nline
                5\t
                6\t\\N
                7\tcomma, "quoted"
                8\t\\\\.
                """, write(CopyFormat.text()));
    }

    @Test
    void csvQuotesOnlyWhatNeedsIt() throws IOException {
        assertEquals("""
                id,note
                1,plain
                2,tab\there
                3,back\\slash
                4,"new
                line"
                5,""
                6,
                7,"comma, ""quoted\"""
                8,\\.
                """, write(CopyFormat.csv().withHeader(true)));
    }
}
