package dev.parallax.planner;

import dev.parallax.CopyChannel;
import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.load.CopyLoader;
import dev.parallax.engine.load.CopyWriter;
import dev.parallax.engine.vector.Batch;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.result.OperatorResult;
import dev.parallax.planner.statement.CopyToStatement;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * COPY between a table or query and the client: {@code COPY t FROM STDIN} reads the session's
 * {@link CopyChannel}; {@code COPY t | (query) TO 'file' | STDOUT} streams the rows of a query
 * batch by batch through a {@link CopyWriter}, never holding the whole result.
 */
final class CopyCommands {
    private final SqlSession session;

    CopyCommands(SqlSession session) {
        this.session = session;
    }

    /** COPY table FROM STDIN (all columns, in table order): the load is all or nothing. */
    Result fromStdin(Table table, dev.parallax.engine.load.CopyFormat format) {
        CopyChannel channel = requireChannel("COPY FROM STDIN");
        ExecutionContext context = session.newContext(null, false);
        long rows;
        try (InputStream input = channel.openInput(table.columns().size(), format)) {
            rows = CopyLoader.copyFrom(table, new InputStreamReader(input, StandardCharsets.UTF_8), format, context);
        } catch (IOException failure) {
            throw new ParallaxException(SqlState.QUERY_CANCELED, "COPY from stdin failed: " + failure.getMessage(), failure);
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        } finally {
            session.running().finish(context);
        }
        return new CommandResult("COPY " + rows, rows, List.of());
    }

    /** COPY table [(columns)] | (query) TO 'file' | STDOUT. */
    Result to(CopyToStatement copy) {
        String query = copy.query() != null ? copy.query() : tableQuery(copy);
        try (Result result = session.execute(query)) {
            if (!result.hasRows()) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "COPY query must have a RETURNING clause");
            }
            List<String> names = new ArrayList<>();
            for (ResultColumn column : result.columns()) {
                names.add(column.name());
            }
            long rows = 0;
            try (Writer out = open(copy, names.size())) {
                CopyWriter writer = new CopyWriter(copy.options(), out,
                        dev.parallax.engine.type.SessionTimeZone.ofSetting(session.settings().show("TimeZone")));
                writer.writeHeader(names);
                Batch batch;
                while ((batch = result.nextBatch()) != null) {
                    rows += writer.write(batch);
                }
            } catch (IOException failure) {
                throw new ParallaxException(SqlState.IO_ERROR, copy.fileName() == null
                        ? "could not send COPY data: " + failure.getMessage()
                        : "could not write to file \"" + copy.fileName() + "\": " + failure.getMessage(), failure);
            }
            return new CommandResult("COPY " + rows, rows, List.of());
        }
    }

    private Writer open(CopyToStatement copy, int columnCount) throws IOException {
        if (copy.fileName() == null) {
            CopyChannel channel = requireChannel("COPY TO STDOUT");
            return new BufferedWriter(new OutputStreamWriter(channel.openOutput(columnCount, copy.options()), StandardCharsets.UTF_8),
                    64 * 1024);
        }
        try {
            return Files.newBufferedWriter(Path.of(copy.fileName()), StandardCharsets.UTF_8);
        } catch (NoSuchFileException missing) {
            throw new ParallaxException(SqlState.UNDEFINED_FILE,
                    "could not open file \"" + copy.fileName() + "\" for writing: No such file or directory", missing);
        } catch (AccessDeniedException denied) {
            throw new ParallaxException(SqlState.INSUFFICIENT_PRIVILEGE,
                    "could not open file \"" + copy.fileName() + "\" for writing: Permission denied", denied);
        }
    }

    /** {@code select "c1", "c2" from "t"} for the table form, after checking the names as PostgreSQL does. */
    private String tableQuery(CopyToStatement copy) {
        Table table = copy.tableName().table(session.catalog());
        List<String> columns = new ArrayList<>();
        if (copy.columns().isEmpty()) {
            table.columns().forEach(column -> columns.add(column.name()));
        } else {
            for (String name : copy.columns()) {
                if (table.columnIndex(name) < 0) {
                    throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                            name, table.name());
                }
                if (columns.contains(name)) {
                    throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" specified more than once", name);
                }
                columns.add(name);
            }
        }
        StringBuilder sql = new StringBuilder("select ");
        for (int index = 0; index < columns.size(); index++) {
            sql.append(index == 0 ? "" : ", ").append(quoted(columns.get(index)));
        }
        sql.append(" from ");
        if (copy.tableName().qualified()) {
            // Past a temporary table of the name, as the name was written.
            sql.append(quoted(copy.tableName().schemaName())).append('.');
        }
        return sql.append(quoted(table.name())).toString();
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private CopyChannel requireChannel(String what) {
        CopyChannel channel = session.copyChannel();
        if (channel == null) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "%s needs a client that exchanges COPY data (psql, the wire protocol); use a file name instead", what);
        }
        return channel;
    }
}
