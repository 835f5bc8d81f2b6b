package dev.parallax.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** DuckDB in the same JVM, loaded with the same data, as the peer every benchmark measures against. */
public final class DuckDbPeer implements AutoCloseable {
    private final Connection connection;

    public DuckDbPeer(int threads) throws SQLException {
        connection = DriverManager.getConnection("jdbc:duckdb:");
        execute("SET threads = " + threads);
    }

    public void loadTpch(double scaleFactor) throws SQLException {
        Path directory = TpchFiles.directory(scaleFactor);
        for (String create : TpchSchema.CREATE_STATEMENTS) {
            execute(create);
        }
        for (String table : TpchSchema.TABLES) {
            String file = directory.resolve(table + ".tbl").toAbsolutePath().toString().replace("'", "''");
            execute("COPY " + table + " FROM '" + file + "' (DELIMITER '|', HEADER false)");
        }
    }

    public void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Runs a query and reads every value of every row; returns the row count. */
    public long consume(String sql) throws SQLException {
        long rows = 0;
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                for (int column = 1; column <= columns; column++) {
                    result.getObject(column);
                }
                rows++;
            }
        }
        return rows;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    /** A query file from the repository's {@code queries/} folder (packaged into the benchmark jar). */
    public static String query(String path) {
        try (InputStream in = DuckDbPeer.class.getResourceAsStream("/queries/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no query file queries/" + path);
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            return sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
        } catch (IOException failure) {
            throw new IllegalStateException(failure);
        }
    }
}
