package dev.parallax.test.slt;

import dev.parallax.Database;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the records of one file, in order, on one session of a fresh database set up for a mode.
 * {@code ${RESOURCES}} in a record's SQL stands for the absolute path of the {@code sql/} test
 * directory, so that COPY FROM can name data files kept beside the tests.
 */
final class RecordRunner implements AutoCloseable {
    private static final String RESOURCES = "${RESOURCES}";
    private static final String RESOURCES_PATH = Path.of("src/test/resources/sql").toAbsolutePath().normalize().toString();

    private final Database database;
    private final Session session;

    RecordRunner(TestMode mode) {
        this.database = Database.inMemory(mode.options());
        this.session = database.openSession();
        for (Map.Entry<String, String> setting : mode.settings().entrySet()) {
            session.settings().set(setting.getKey(), setting.getValue());
        }
    }

    /** Runs a statement record; throws AssertionError when the outcome differs from the expectation. */
    void runStatement(TestRecord.Statement record, String where) {
        try (Result result = session.execute(resolve(record.sql()))) {
            drain(result);
            if (record.expectError()) {
                throw new AssertionError(where + ": expected an error"
                        + (record.expectedState() == null ? "" : " " + record.expectedState()) + " but the statement succeeded");
            }
        } catch (ParallaxException error) {
            if (!record.expectError()) {
                throw new AssertionError(where + ": unexpected error " + error.state().code() + ": " + error.getMessage(), error);
            }
            if (record.expectedState() != null && !record.expectedState().equals(error.state().code())) {
                throw new AssertionError(where + ": expected SQLSTATE " + record.expectedState() + " but got "
                        + error.state().code() + ": " + error.getMessage(), error);
            }
            if (record.expectedMessage() != null && !error.getMessage().contains(record.expectedMessage())) {
                throw new AssertionError(where + ": expected a message containing \"" + record.expectedMessage()
                        + "\" but got: " + error.getMessage(), error);
            }
        }
    }

    /** Runs a query record and returns its rows as the file writes them (sorted for rowsort). */
    List<String> runQuery(TestRecord.Query record, String where) {
        try (Result result = session.execute(resolve(record.sql()))) {
            if (result.columns().size() != record.types().length()) {
                throw new AssertionError(where + ": query returns " + result.columns().size()
                        + " columns but the record declares " + record.types().length() + " (" + record.types() + ")");
            }
            List<String> rows = new ArrayList<>();
            StringBuilder line = new StringBuilder();
            // Timestamps with time zone print in the session's TimeZone, as psql shows them.
            SessionTimeZone zone = SessionTimeZone.ofSetting(session.settings().show("TimeZone"));
            Batch batch;
            while ((batch = result.nextBatch()) != null) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int position = batch.position(index);
                    line.setLength(0);
                    for (int column = 0; column < batch.columnCount(); column++) {
                        if (column > 0) {
                            line.append('\t');
                        }
                        String text = ValueText.format(batch.column(column), position, zone);
                        line.append(text == null ? "NULL" : text.isEmpty() ? "(empty)" : text);
                    }
                    rows.add(line.toString());
                }
            }
            if (record.sortMode() == TestRecord.SortMode.ROWSORT) {
                rows.sort(null);
            }
            return rows;
        } catch (ParallaxException error) {
            throw new AssertionError(where + ": unexpected error " + error.state().code() + ": " + error.getMessage(), error);
        }
    }

    private static String resolve(String sql) {
        return sql.replace(RESOURCES, RESOURCES_PATH);
    }

    private static void drain(Result result) {
        while (result.nextBatch() != null) {
            // Statements may return rows (e.g. a SELECT run as a statement); read them so errors surface.
        }
    }

    @Override
    public void close() {
        session.close();
        database.close();
    }
}
