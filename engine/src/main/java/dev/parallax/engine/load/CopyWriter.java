package dev.parallax.engine.load;

import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Objects;

/**
 * The writing side of COPY (COPY ... TO): formats batches as lines of PostgreSQL's text or csv
 * COPY format. Text escapes backslash, the delimiter and control characters and writes NULL as the
 * null string ({@code \N}); csv quotes a value that holds the delimiter, the quote or a line break,
 * a value equal to the null string, or {@code \.} alone on a line, doubling the quote (or using the escape). Values
 * are printed by PostgreSQL's output rules ({@link ValueText}). Not thread-safe; one per COPY.
 */
public final class CopyWriter {
    private final CopyFormat format;
    private final Writer out;
    private final StringBuilder value = new StringBuilder(64);
    private final StringBuilder line = new StringBuilder(256);
    /** The session's TimeZone, which timestamps with time zone are written in (PostgreSQL's output function reads it). */
    private final SessionTimeZone zone;

    public CopyWriter(CopyFormat format, Writer out) {
        this(format, out, SessionTimeZone.UTC);
    }

    public CopyWriter(CopyFormat format, Writer out, SessionTimeZone zone) {
        this.format = Objects.requireNonNull(format, "format");
        this.out = Objects.requireNonNull(out, "out");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    /** The header line (column names), written when the format asks for one; call once before the rows. */
    public void writeHeader(List<String> columnNames) throws IOException {
        if (!format.header()) {
            return;
        }
        line.setLength(0);
        for (int index = 0; index < columnNames.size(); index++) {
            if (index > 0) {
                line.append(format.delimiter());
            }
            appendField(columnNames.get(index), columnNames.size() == 1);
        }
        line.append('\n');
        out.append(line);
    }

    /** Writes the selected rows of {@code batch}; returns how many. */
    public int write(Batch batch) throws IOException {
        ColumnVector[] columns = batch.columns();
        int count = batch.selectedCount();
        for (int index = 0; index < count; index++) {
            int position = batch.position(index);
            line.setLength(0);
            for (int column = 0; column < columns.length; column++) {
                if (column > 0) {
                    line.append(format.delimiter());
                }
                ColumnVector vector = columns[column];
                if (vector.isNull(position)) {
                    line.append(format.nullString());
                    continue;
                }
                value.setLength(0);
                ValueText.append(value, vector, position, zone);
                appendField(value, columns.length == 1);
            }
            line.append('\n');
            out.append(line);
        }
        return count;
    }

    public void flush() throws IOException {
        out.flush();
    }

    private void appendField(CharSequence text, boolean onlyColumn) {
        if (format.kind() == CopyFormat.Kind.TEXT) {
            appendText(text);
        } else {
            appendCsv(text, onlyColumn);
        }
    }

    /** PostgreSQL's CopyAttributeOutText: backslash escapes for backslash, delimiter and control characters. */
    private void appendText(CharSequence text) {
        char delimiter = format.delimiter();
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            if (character < 0x20 || character == 0x7F) {
                switch (character) {
                    case '\b' -> line.append("\\b");
                    case '\f' -> line.append("\\f");
                    case '\n' -> line.append("\\n");
                    case '\r' -> line.append("\\r");
                    case '\t' -> line.append(delimiter == '\t' ? "\\t" : "\t");
                    case 0x0B -> line.append("\\v");
                    default -> {
                        if (character == delimiter) {
                            line.append('\\');
                        }
                        line.append(character);
                    }
                }
            } else if (character == '\\' || character == delimiter) {
                line.append('\\').append(character);
            } else {
                line.append(character);
            }
        }
    }

    /** PostgreSQL's CopyAttributeOutCSV: quote when needed, doubling quotes (or escaping them). */
    private void appendCsv(CharSequence text, boolean onlyColumn) {
        char quote = format.quote();
        char escape = format.escape();
        boolean needsQuotes = text.length() == 0 ? format.nullString().isEmpty() : text.toString().equals(format.nullString());
        // \. alone on a line would read back as the end-of-data marker.
        needsQuotes |= onlyColumn && text.length() == 2 && text.charAt(0) == '\\' && text.charAt(1) == '.';
        for (int index = 0; !needsQuotes && index < text.length(); index++) {
            char character = text.charAt(index);
            needsQuotes = character == format.delimiter() || character == quote || character == '\n' || character == '\r';
        }
        if (!needsQuotes) {
            line.append(text);
            return;
        }
        line.append(quote);
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            if (character == quote || character == escape) {
                line.append(escape);
            }
            line.append(character);
        }
        line.append(quote);
    }
}
