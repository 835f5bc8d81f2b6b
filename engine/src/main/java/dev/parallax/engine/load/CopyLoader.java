package dev.parallax.engine.load;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.operator.dml.CheckedRows;
import dev.parallax.engine.operator.dml.TableAppender;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code COPY table FROM 'file'} with PostgreSQL's text and csv formats. The whole input is parsed
 * and converted first; the rows are then appended in one all-or-nothing step, so a malformed line
 * anywhere leaves the table unchanged. Errors carry PostgreSQL's wording, with the line named in
 * PostgreSQL's CONTEXT ({@code COPY t, line 3, column c: "abc"}).
 * Given the statement's {@link ExecutionContext}, the load reports rows read as its progress
 * (phase {@code COPY <table>}) and honours cancellation, once per batch of rows.
 */
public final class CopyLoader {
    private static final int BATCH_ROWS = 4096;

    private final Table table;
    private final CopyFormat format;
    private final List<ColumnDefinition> columns;
    private final List<DataType> types;
    private final List<String> fields = new ArrayList<>();
    private final StringBuilder field = new StringBuilder();
    /** The statement running the load, or null (no progress, no cancellation). */
    private final ExecutionContext context;
    /** The session's TimeZone, which a timestamp with time zone written without an offset is read in. */
    private final SessionTimeZone zone;
    private final String progressPhase;
    /** The table's CHECK constraints, or null when it has none. */
    private final CheckedRows checks;
    private long lineNumber;

    private CopyLoader(Table table, CopyFormat format, ExecutionContext context) {
        this.table = table;
        this.format = format;
        this.columns = table.columns();
        this.types = table.columnTypes();
        this.context = context;
        this.zone = context == null ? SessionTimeZone.UTC : SessionTimeZone.ofSetting(context.settings().show("TimeZone"));
        this.progressPhase = "COPY " + table.name();
        this.checks = CheckedRows.of(table, context);
    }

    /** Loads {@code file} into {@code table}; returns the number of rows loaded. */
    public static long copyFrom(Table table, Path file, CopyFormat format) {
        return copyFrom(table, file, format, null);
    }

    /**
     * As {@link #copyFrom(Table, Path, CopyFormat)}, reporting progress to and checking
     * cancellation of {@code context} (null for neither) after each batch of rows read.
     */
    public static long copyFrom(Table table, Path file, CopyFormat format, ExecutionContext context) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return new CopyLoader(table, format, context).load(reader);
        } catch (NoSuchFileException missing) {
            throw new ParallaxException(SqlState.UNDEFINED_FILE,
                    "could not open file \"" + file + "\" for reading: No such file or directory", missing);
        } catch (AccessDeniedException denied) {
            throw new ParallaxException(SqlState.INSUFFICIENT_PRIVILEGE,
                    "could not open file \"" + file + "\" for reading: Permission denied", denied);
        } catch (IOException failure) {
            throw new ParallaxException(SqlState.IO_ERROR,
                    "could not read from COPY file \"" + file + "\": " + failure.getMessage(), failure);
        }
    }

    /** Loads the rows read from {@code input} (e.g. COPY FROM STDIN); returns the number of rows loaded. */
    public static long copyFrom(Table table, Reader input, CopyFormat format) throws IOException {
        return copyFrom(table, input, format, null);
    }

    /** As {@link #copyFrom(Table, Reader, CopyFormat)}, with the progress and cancellation of {@code context} (may be null). */
    public static long copyFrom(Table table, Reader input, CopyFormat format, ExecutionContext context) throws IOException {
        BufferedReader reader = input instanceof BufferedReader buffered ? buffered : new BufferedReader(input);
        return new CopyLoader(table, format, context).load(reader);
    }

    private long load(BufferedReader reader) throws IOException {
        List<Batch> batches = new ArrayList<>();
        Batch batch = Batch.create(types, BATCH_ROWS);
        int rows = 0;
        long total = 0;
        if (format.header()) {
            lineNumber++;
            if (reader.readLine() == null) {
                return 0;
            }
        }
        String line;
        while ((line = reader.readLine()) != null) {
            lineNumber++;
            if (format.kind() == CopyFormat.Kind.TEXT) {
                if (line.equals("\\.")) {
                    break;
                }
                splitText(line);
            } else {
                if (line.equals("\\.")) {
                    break;
                }
                splitCsv(line, reader);
            }
            if (fields.size() < columns.size()) {
                throw copyError(SqlState.BAD_COPY_FILE_FORMAT,
                        "missing data for column \"" + columns.get(fields.size()).name() + "\"", line);
            }
            if (fields.size() > columns.size()) {
                throw copyError(SqlState.BAD_COPY_FILE_FORMAT, "extra data after last expected column", line);
            }
            for (int column = 0; column < columns.size(); column++) {
                store(batch.column(column), rows, column);
            }
            rows++;
            total++;
            if (rows == BATCH_ROWS) {
                batch.setRowCount(rows);
                check(batch);
                batches.add(batch);
                batch = Batch.create(types, BATCH_ROWS);
                rows = 0;
                if (context != null) {
                    context.checkCancelled();
                    // The total is unknown until the end of the input: report rows read so far.
                    context.progress().update(progressPhase, total, 0, "rows");
                }
            }
        }
        if (rows > 0) {
            batch.setRowCount(rows);
            check(batch);
            batches.add(batch);
        }
        if (context != null) {
            context.progress().update(progressPhase, total, total, "rows");
        }
        TableAppender.appendAll(table, batches);
        return total;
    }

    /** The table's CHECK constraints over a batch of read rows (23514), before anything is stored. */
    private void check(Batch batch) {
        if (checks != null) {
            checks.check(batch, table);
        }
    }

    private void store(ColumnVector vector, int position, int column) {
        String text = fields.get(column);
        if (text == null) {
            if (columns.get(column).notNull()) {
                throw new ParallaxException(SqlState.NOT_NULL_VIOLATION,
                        "null value in column \"" + columns.get(column).name() + "\" of relation \"" + table.name()
                                + "\" violates not-null constraint")
                        .withContext(context() + ", column " + columns.get(column).name() + ": null input");
            }
            vector.setNull(position);
            return;
        }
        Object value;
        try {
            value = ValueText.parse(types.get(column), text, zone);
        } catch (ParallaxException error) {
            throw new ParallaxException(error.state(), error.getMessage(), error.detail(), error.hint(), 0, error)
                    .withContext(context() + ", column " + columns.get(column).name() + ": \"" + text + "\"");
        }
        switch (vector) {
            case LongVector longs -> longs.set(position, (Long) value);
            case DoubleVector doubles -> doubles.set(position, (Double) value);
            case BytesVector bytes -> bytes.set(position, (byte[]) value);
        }
    }

    private String context() {
        return "COPY " + table.name() + ", line " + lineNumber;
    }

    private ParallaxException copyError(SqlState state, String message, String line) {
        return new ParallaxException(state, message).withContext(context() + ": \"" + line + "\"");
    }

    /**
     * Text format: fields split at the delimiter; the null string is compared before de-escaping;
     * backslash escapes as PostgreSQL's CopyReadAttributesText.
     */
    private void splitText(String line) {
        fields.clear();
        char delimiter = format.delimiter();
        int index = 0;
        int length = line.length();
        while (true) {
            field.setLength(0);
            int start = index;
            boolean escaped = false;
            while (index < length && line.charAt(index) != delimiter) {
                char character = line.charAt(index++);
                if (character != '\\' || index >= length) {
                    field.append(character);
                    continue;
                }
                escaped = true;
                char next = line.charAt(index++);
                switch (next) {
                    case 'b' -> field.append('\b');
                    case 'f' -> field.append('\f');
                    case 'n' -> field.append('\n');
                    case 'r' -> field.append('\r');
                    case 't' -> field.append('\t');
                    case 'v' -> field.append('\u000B');
                    case 'x' -> {
                        int value = 0;
                        int digits = 0;
                        while (digits < 2 && index < length && Character.digit(line.charAt(index), 16) >= 0) {
                            value = value * 16 + Character.digit(line.charAt(index++), 16);
                            digits++;
                        }
                        if (digits == 0) {
                            field.append('x');
                        } else {
                            field.append((char) value);
                        }
                    }
                    case '0', '1', '2', '3', '4', '5', '6', '7' -> {
                        int value = next - '0';
                        int digits = 1;
                        while (digits < 3 && index < length && line.charAt(index) >= '0' && line.charAt(index) <= '7') {
                            value = value * 8 + (line.charAt(index++) - '0');
                            digits++;
                        }
                        field.append((char) value);
                    }
                    default -> field.append(next);
                }
            }
            String raw = line.substring(start, index);
            fields.add(raw.equals(format.nullString()) ? null : escaped ? field.toString() : raw);
            if (index >= length) {
                return;
            }
            index++; // the delimiter
        }
    }

    /**
     * CSV format: quoted fields may hold delimiters, doubled quotes (or escape + quote) and line
     * breaks; an unquoted field equal to the null string is NULL, a quoted one never is.
     */
    private void splitCsv(String firstLine, BufferedReader reader) throws IOException {
        fields.clear();
        char delimiter = format.delimiter();
        char quote = format.quote();
        char escape = format.escape();
        String line = firstLine;
        int index = 0;
        while (true) {
            field.setLength(0);
            boolean wasQuoted = false;
            boolean inQuotes = false;
            while (true) {
                if (index >= line.length()) {
                    if (!inQuotes) {
                        break;
                    }
                    String next = reader.readLine();
                    if (next == null) {
                        throw copyError(SqlState.BAD_COPY_FILE_FORMAT, "unterminated CSV quoted field", line);
                    }
                    lineNumber++;
                    field.append('\n');
                    line = next;
                    index = 0;
                    continue;
                }
                char character = line.charAt(index);
                if (inQuotes) {
                    if (character == escape && index + 1 < line.length()
                            && (line.charAt(index + 1) == quote || line.charAt(index + 1) == escape) && (escape != quote || line.charAt(index + 1) == quote)) {
                        field.append(line.charAt(index + 1));
                        index += 2;
                    } else if (character == quote) {
                        inQuotes = false;
                        index++;
                    } else {
                        field.append(character);
                        index++;
                    }
                } else if (character == delimiter) {
                    break;
                } else if (character == quote) {
                    inQuotes = true;
                    wasQuoted = true;
                    index++;
                } else {
                    field.append(character);
                    index++;
                }
            }
            String value = field.toString();
            fields.add(!wasQuoted && value.equals(format.nullString()) ? null : value);
            if (index >= line.length()) {
                return;
            }
            index++; // the delimiter
        }
    }
}
