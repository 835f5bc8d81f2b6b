package dev.parallax.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code \copy ... from FILE} loads a file as COPY FROM does; the parts not available say so. */
class CopyMetaCommandTest {
    @TempDir
    Path directory;

    private static CommandRun run(String stdin, String... args) {
        return CommandRun.of(stdin, args);
    }

    @Test
    void loadsQuotedAndUnquotedFileNamesWithOptions() throws IOException {
        Path file = directory.resolve("items.csv");
        Files.writeString(file, "id|name\n1|one\n2|two, too\n");
        CommandRun run = run("create table items (id int, name text);\n"
                + "\\copy items from '" + file + "' with (format csv, delimiter '|', header true)\n"
                + "\\copy items (id, name) from " + file + " with (format csv, delimiter '|', header)\n"
                + "select count(*), max(name) from items;\n");
        assertEquals("", run.err());
        assertEquals(0, run.status());
        assertEquals("""
                CREATE TABLE
                COPY 2
                COPY 2
                 count |   max   \s
                -------+----------
                     4 | two, too
                (1 row)

                """, run.out());
    }

    @Test
    void copiesTablesAndQueriesToFilesAndStandardOutput() throws IOException {
        Path text = directory.resolve("out.txt");
        Path csv = directory.resolve("out file.csv");
        CommandRun run = run("create table items (id int, name text);\n"
                + "insert into items values (1, 'tab\there'), (2, null), (3, 'comma, \"quoted\"');\n"
                + "\\copy items to '" + text + "'\n"
                + "\\copy (select id, name from items where id > 1 order by id) to '" + csv + "' with (format csv, header)\n"
                + "\\copy items (name) to stdout with csv\n");
        assertEquals("", run.err());
        assertEquals(0, run.status());
        assertEquals("CREATE TABLE\nINSERT 0 3\nCOPY 3\nCOPY 2\ntab\there\n\n\"comma, \"\"quoted\"\"\"\nCOPY 3\n", run.out());
        assertEquals("1\ttab\\there\n2\t\\N\n3\tcomma, \"quoted\"\n", Files.readString(text));
        assertEquals("id,name\n2,\n3,\"comma, \"\"quoted\"\"\"\n", Files.readString(csv));
    }

    @Test
    void copiesFromTheScriptAndFromStandardInput() throws IOException {
        Path script = Files.writeString(directory.resolve("copy.sql"),
                "create table items (id int);\n\\copy items from stdin\n1\n2\n\\.\nselect count(*) from items;\n");
        assertEquals(new CommandRun(0, "CREATE TABLE\nCOPY 2\n count \n-------\n     2\n(1 row)\n\n", ""), run("", "-f", script.toString()));
        // pstdin is the process's standard input even while a script runs (psql 15 prints the same).
        CommandRun pstdin = run("7\n8\n\\.\n", "-c", "create table items (id int)", "-c", "\\copy items from pstdin", "-c", "table items");
        assertEquals(new CommandRun(0, "CREATE TABLE\nCOPY 2\n id \n----\n  7\n  8\n(2 rows)\n\n", ""), pstdin);
    }
}
