package dev.parallax.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A shop database dumped by PostgreSQL 15's pg_dump loads through the shell ({@code parallax -f}) as
 * it restores into PostgreSQL. The database (made as role parallax) has serial, bigserial and
 * identity columns (one GENERATED ALWAYS), a sequence OWNED BY a column with a {@code nextval}
 * default, numeric(p,s), varchar, text, char(2), boolean, date, timestamp and timestamp(3) columns,
 * NULLs, tabs, newlines, backslashes and non-ASCII text, CHECK, UNIQUE and PRIMARY KEY constraints,
 * single- and multi-column, DESC and unique indexes, two views, comments on a table, a column and a
 * view, grants, and a plpgsql trigger function. pg_dump_shop.sql is its plain dump,
 * pg_dump_shop_inserts.sql its {@code --column-inserts} dump. pg_dump_shop.expected is what
 * {@code psql -q -A} printed restoring the plain dump into an empty PostgreSQL 15 database and then
 * running pg_dump_shop.queries (one per line: the tables, views, columns with their defaults,
 * constraints, indexes and comments, then inserts that take the sequences' next values and the
 * defaults, the sequences, and inserts the constraints refuse); pg_dump_shop.errors is what it
 * printed on stderr for those queries. Parallax prints the same, and on stderr before it the
 * statements of the dump it lacks: the function and its trigger (0A000) and the grant to a role it
 * does not have (42704); the rest of the dump loads.
 */
class PgDumpRestoreTest {
    @TempDir
    Path directory;

    @ParameterizedTest
    @CsvSource({"pg_dump_shop.sql, 32, 35, 485, 492", "pg_dump_shop_inserts.sql, 32, 35, 474, 481"})
    void dumpRestoresAsInPostgres(String dumpName, int functionLine, int ownerLine, int triggerLine, int grantLine) throws IOException {
        Path dump = Files.writeString(directory.resolve(dumpName), resource(dumpName));
        List<String> arguments = new ArrayList<>(List.of("-q", "-A", "-f", dump.toString()));
        for (String query : resource("pg_dump_shop.queries").split("\n")) {
            arguments.add("-c");
            arguments.add(query);
        }
        CommandRun run = CommandRun.of("", arguments.toArray(String[]::new));
        String at = "parallax:" + dump + ":";
        String missing = at + functionLine + """
                : ERROR:  CREATE FUNCTION is not supported
                LINE 5: CREATE FUNCTION public.audit_stamp() RETURNS trigger
                               ^
                """ + at + ownerLine + """
                : ERROR:  ALTER FUNCTION is not supported
                LINE 1: ALTER FUNCTION public.audit_stamp() OWNER TO parallax
                              ^
                """ + at + triggerLine + """
                : ERROR:  CREATE TRIGGER is not supported
                LINE 5: CREATE TRIGGER audit_log_stamp BEFORE INSERT ON public.audit...
                               ^
                """ + at + grantLine + """
                : ERROR:  role "reader" does not exist
                """;
        assertEquals(new CommandRun(0, resource("pg_dump_shop.expected"), missing + resource("pg_dump_shop.errors")), run);
    }

    private static String resource(String name) throws IOException {
        try (InputStream stream = PgDumpRestoreTest.class.getResourceAsStream(name)) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
