package dev.parallax.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A plain pg_dump script loads: pg_dump_small.sql is {@code pg_dump --no-owner} of a PostgreSQL 15
 * database (int, text, numeric, date, timestamp and boolean columns, NULLs, primary keys added after
 * the data, a serial column, a table comment). pg_dump_small.load.expected is what {@code psql -q -A}
 * printed restoring it into an empty PostgreSQL 15 database, pg_dump_small.expected what it then
 * printed for the queries below: the tables hold the same rows and keys, and the serial column's
 * sequence (CREATE SEQUENCE, OWNED BY, SET DEFAULT nextval('public.tags_id_seq'::regclass)) goes on
 * from the dump's setval.
 */
class PgDumpScriptTest {
    private static final String[] QUERIES = {
            "select * from customers order by id",
            "select * from orders order by order_id",
            "select order_id, note is null as no_note, customer_id is null as no_customer from orders order by order_id",
            "select * from empty_table",
            "select * from tags order by id",
            "insert into customers values (1, 'again')",
            "insert into orders (order_id) values (14)",
            "select count(*) from orders",
            "insert into tags (label) values ('new') returning id",
            "select obj_description('customers'::regclass)"};

    @TempDir
    Path directory;

    @Test
    void dumpLoadsWithTheTablesContentsAndKeys() throws IOException {
        Path dump = Files.writeString(directory.resolve("pg_dump_small.sql"), resource("pg_dump_small.sql"));
        String[] arguments = new String[QUERIES.length * 2 + 4];
        arguments[0] = "-q";
        arguments[1] = "-A";
        arguments[2] = "-f";
        arguments[3] = dump.toString();
        for (int index = 0; index < QUERIES.length; index++) {
            arguments[4 + 2 * index] = "-c";
            arguments[5 + 2 * index] = QUERIES[index];
        }
        CommandRun run = CommandRun.of("", arguments);
        String loaded = resource("pg_dump_small.load.expected");
        String at = "parallax:" + dump + ":";
        assertEquals(new CommandRun(0, loaded + resource("pg_dump_small.expected"), EXPECTED_ERRORS.replace("@", at)), run);
    }

    private static String resource(String name) throws IOException {
        try (InputStream stream = PgDumpScriptTest.class.getResourceAsStream(name)) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * The errors: the dump loads without any ({@code @} would stand for the script's name and line); the
     * duplicate key is the test's own insert, refused by the restored primary key as in PostgreSQL.
     */
    private static final String EXPECTED_ERRORS = """
            ERROR:  duplicate key value violates unique constraint "customers_pkey"
            DETAIL:  Key (id)=(1) already exists.
            """;
}
