package dev.parallax.test.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real PostgreSQL 15 clients against the wire server: psql with -c and -f, and pgbench with
 * custom scripts in the simple, extended and prepared protocols. Skipped (with the reason) where
 * psql or pgbench is not installed; ./test installs them on Debian (scripts/test-tools.sh).
 */
class PostgresClientsTest {
    private static WireServer server;

    @TempDir
    Path directory;

    @BeforeAll
    static void startServer() throws Exception {
        server = WireServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void psqlRunsCommandsAndFiles() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Result created = psql("-c", "create table psql_items (id int, name text, price numeric(8,2))",
                "-c", "insert into psql_items values (1, 'one', 1.50), (2, 'two', null), (3, 'three', 3.25)");
        assertEquals("CREATE TABLE\nINSERT 0 3\n", created.output(), created.errors());
        Path script = directory.resolve("report.sql");
        Files.writeString(script, """
                select id, name from psql_items where price is not null order by id;
                select count(*), sum(price) from psql_items;
                """);
        Result report = psql("-At", "-f", script.toString());
        assertEquals("1|one\n3|three\n3|4.75\n", report.output(), report.errors());
        Result aligned = psql("-c", "select id, price from psql_items order by id");
        assertEquals("""
                 id | price\s
                ----+-------
                  1 |  1.50
                  2 |     \s
                  3 |  3.25
                (3 rows)

                """, aligned.output(), aligned.errors());
        Result failing = psql("-v", "ON_ERROR_STOP=1", "-c", "select * from missing_table");
        assertEquals(1, failing.exitCode());
        assertTrue(failing.errors().contains("ERROR:  relation \"missing_table\" does not exist"), failing.errors());
    }

    @Test
    void psqlPrintsTheTagsOfCreateTableAs() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Result created = psql("-c", "create table psql_ctas as select g as id, 'v' || g as name from generate_series(1, 2) g",
                "-c", "select id into psql_ctas_into from psql_ctas where id = 1",
                "-c", "create table if not exists psql_ctas as select 1");
        assertEquals("SELECT 2\nSELECT 1\nCREATE TABLE AS\n", created.output(), created.errors());
        assertEquals("NOTICE:  relation \"psql_ctas\" already exists, skipping\n", created.errors());
        Result described = psql("-c", "\\d psql_ctas");
        assertEquals("""
                             Table "public.psql_ctas"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           |          |\s
                 name   | text    |           |          |\s

                """, described.output(), described.errors());
        psql("-c", "drop table psql_ctas, psql_ctas_into");
    }

    @Test
    void psqlTransactionBlocks() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Path script = directory.resolve("blocks.sql");
        Files.writeString(script, """
                create table psql_blocks (id int primary key);
                begin;
                insert into psql_blocks values (1), (2);
                commit;
                begin;
                select count(*) from psql_blocks;
                select 1 / 0;
                select 2;
                rollback;
                commit;
                select count(*) from psql_blocks;
                """);
        Result blocks = psql("-q", "-At", "-f", script.toString());
        assertEquals("2\n2\n", blocks.output(), blocks.errors());
        assertEquals(String.join("\n",
                "psql:" + script + ":7: ERROR:  division by zero",
                "psql:" + script + ":8: ERROR:  current transaction is aborted, commands ignored until end of transaction block",
                "psql:" + script + ":10: WARNING:  there is no transaction in progress", ""), blocks.errors());
        // psql's single-transaction mode wraps a file in BEGIN / COMMIT.
        Result single = psql("-q", "-At", "-1", "-c", "insert into psql_blocks values (3)", "-c", "select count(*) from psql_blocks");
        assertEquals("3\n", single.output(), single.errors());
    }

    @Test
    void psqlDescribesTablesIndexesSchemasAndDatabases() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Result created = psql("-c", "create table described (id int primary key, name varchar(20) not null, note text)",
                "-c", "create index described_name on described (name)");
        assertEquals("CREATE TABLE\nCREATE INDEX\n", created.output(), created.errors());
        // The -c commands share the server with the other tests: patterns keep their tables out.
        Result tables = psql("-c", "\\dt describ*");
        assertEquals("""
                           List of relations
                 Schema |   Name    | Type  |  Owner  \s
                --------+-----------+-------+----------
                 public | described | table | parallax
                (1 row)

                """, tables.output(), tables.errors());
        Result relations = psql("-c", "\\d");
        assertTrue(relations.exitCode() == 0 && relations.output().matches("(?s).*\n public \\| described +\\| table \\| parallax\n.*"),
                relations.output() + relations.errors());
        Result indexes = psql("-c", "\\di describ*");
        assertEquals("""
                                   List of relations
                 Schema |      Name      | Type  |  Owner   |   Table  \s
                --------+----------------+-------+----------+-----------
                 public | described_name | index | parallax | described
                 public | described_pkey | index | parallax | described
                (2 rows)

                """, indexes.output(), indexes.errors());
        Result schemas = psql("-c", "\\dn");
        assertEquals("""
                  List of schemas
                  Name  |  Owner  \s
                --------+----------
                 public | parallax
                (1 row)

                """, schemas.output(), schemas.errors());
        Result databases = psql("-At", "-c", "\\l");
        assertEquals("parallax|parallax|UTF8|C|C||libc|\n", databases.output(), databases.errors());
    }

    /**
     * psql 15's {@code \d TABLE} shows column defaults from pg_attrdef (pg_get_expr's pretty form)
     * and identity columns from pg_attribute.attidentity, and {@code \ds} the sequences, as PostgreSQL 15.
     */
    @Test
    void psqlDescribesColumnDefaultsIdentityColumnsAndSequences() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Result created = psql("-q", "-v", "ON_ERROR_STOP=1", "-c", "create table defaults_shown (id int, name text default 'x', "
                + "created timestamp default now(), n int not null default 1 + 2, r double precision default random())",
                "-c", "create table identity_shown (id int generated always as identity, n serial, "
                + "b bigint generated by default as identity)");
        assertEquals(0, created.exitCode(), created.errors());
        Result defaults = psql("-c", "\\d defaults_shown");
        Result identity = psql("-c", "\\d identity_shown");
        Result sequences = psql("-c", "\\ds identity_shown*");
        // Other tests list every relation: leave none behind (the sequences go with their table).
        assertEquals(0, psql("-q", "-c", "drop table defaults_shown", "-c", "drop table identity_shown").exitCode());
        assertEquals("""
                                      Table "public.defaults_shown"
                 Column  |            Type             | Collation | Nullable |  Default \s
                ---------+-----------------------------+-----------+----------+-----------
                 id      | integer                     |           |          |\s
                 name    | text                        |           |          | 'x'::text
                 created | timestamp without time zone |           |          | now()
                 n       | integer                     |           | not null | 1 + 2
                 r       | double precision            |           |          | random()

                """, defaults.output(), defaults.errors());
        assertEquals("""
                                            Table "public.identity_shown"
                 Column |  Type   | Collation | Nullable |                  Default                 \s
                --------+---------+-----------+----------+-------------------------------------------
                 id     | integer |           | not null | generated always as identity
                 n      | integer |           | not null | nextval('identity_shown_n_seq'::regclass)
                 b      | bigint  |           | not null | generated by default as identity

                """, identity.output(), identity.errors());
        assertEquals("""
                                  List of relations
                 Schema |         Name          |   Type   |  Owner  \s
                --------+-----------------------+----------+----------
                 public | identity_shown_b_seq  | sequence | parallax
                 public | identity_shown_id_seq | sequence | parallax
                 public | identity_shown_n_seq  | sequence | parallax
                (3 rows)

                """, sequences.output(), sequences.errors());
    }

    /**
     * psql 15's {@code \d VIEW} and {@code \d+ VIEW} read the view's columns from pg_attribute (names,
     * types, nullable) and its definition from pg_get_viewdef; after CREATE OR REPLACE VIEW and ALTER
     * VIEW ... RENAME TO they follow. PostgreSQL 15's output but the definition, which Parallax keeps
     * as written where PostgreSQL deparses it.
     */
    @Test
    void psqlDescribesAView() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Path script = directory.resolve("describe_view.sql");
        Files.writeString(script, """
                create table view_source_rows (a int primary key, b text not null, c numeric(10,2), d date);
                create view view_shown as select a, b as bee from view_source_rows;
                create or replace view view_shown as select a, b as bee, c, d from view_source_rows where a > 0;
                alter view view_shown rename to view_shown_renamed;
                """);
        Result created = psql("-q", "-v", "ON_ERROR_STOP=1", "-f", script.toString());
        assertEquals(0, created.exitCode(), created.errors());
        Result view = psql("-c", "\\d view_shown_renamed");
        assertEquals("""
                            View "public.view_shown_renamed"
                 Column |     Type      | Collation | Nullable | Default\s
                --------+---------------+-----------+----------+---------
                 a      | integer       |           |          |\s
                 bee    | text          |           |          |\s
                 c      | numeric(10,2) |           |          |\s
                 d      | date          |           |          |\s

                """, view.output(), view.errors());
        Result verbose = psql("-c", "\\d+ view_shown_renamed");
        assertEquals("""
                                         View "public.view_shown_renamed"
                 Column |     Type      | Collation | Nullable | Default | Storage  | Description\s
                --------+---------------+-----------+----------+---------+----------+-------------
                 a      | integer       |           |          |         | plain    |\s
                 bee    | text          |           |          |         | extended |\s
                 c      | numeric(10,2) |           |          |         | main     |\s
                 d      | date          |           |          |         | plain    |\s
                View definition:
                 select a, b as bee, c, d from view_source_rows where a > 0;

                """, verbose.output(), verbose.errors());
    }

    /**
     * psql 15's {@code \d TABLE}, {@code \d+ TABLE} and their partitioned forms send correlated
     * subqueries (publications, reloptions), pg_get_partkeydef, pg_partition_ancestors and
     * pg_get_partition_constraintdef. The output is PostgreSQL 15's for the same DDL except what is
     * Parallax's own: PRIMARY KEY and UNIQUE are hash indexes, and OIDs differ.
     */
    @Test
    void psqlDescribesOneTableItsOptionsAndPartitions() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Path script = directory.resolve("describe.sql");
        Files.writeString(script, """
                create table describe_items (id int primary key, name text not null, price numeric(10,2), code int unique);
                create index describe_items_name on describe_items (name);
                alter table describe_items set (parallel_workers = 4);
                create table describe_parts (id int primary key, v text) partition by hash (id);
                create table describe_parts_0 partition of describe_parts for values with (modulus 2, remainder 0);
                create table describe_parts_1 partition of describe_parts for values with (modulus 2, remainder 1);
                """);
        Result created = psql("-q", "-v", "ON_ERROR_STOP=1", "-f", script.toString());
        assertEquals(0, created.exitCode(), created.errors());
        Result table = psql("-c", "\\d describe_items");
        assertEquals("""
                              Table "public.describe_items"
                 Column |     Type      | Collation | Nullable | Default\s
                --------+---------------+-----------+----------+---------
                 id     | integer       |           | not null |\s
                 name   | text          |           | not null |\s
                 price  | numeric(10,2) |           |          |\s
                 code   | integer       |           |          |\s
                Indexes:
                    "describe_items_pkey" PRIMARY KEY, hash (id)
                    "describe_items_code_key" UNIQUE CONSTRAINT, hash (code)
                    "describe_items_name" btree (name)

                """, table.output(), table.errors());
        Result verbose = psql("-c", "\\d+ describe_items");
        assertEquals("""
                                                         Table "public.describe_items"
                 Column |     Type      | Collation | Nullable | Default | Storage  | Compression | Stats target | Description\s
                --------+---------------+-----------+----------+---------+----------+-------------+--------------+-------------
                 id     | integer       |           | not null |         | plain    |             |              |\s
                 name   | text          |           | not null |         | extended |             |              |\s
                 price  | numeric(10,2) |           |          |         | main     |             |              |\s
                 code   | integer       |           |          |         | plain    |             |              |\s
                Indexes:
                    "describe_items_pkey" PRIMARY KEY, hash (id)
                    "describe_items_code_key" UNIQUE CONSTRAINT, hash (code)
                    "describe_items_name" btree (name)
                Access method: heap
                Options: parallel_workers=4

                """, verbose.output(), verbose.errors());
        Result parent = psql("-c", "\\d describe_parts");
        assertEquals("""
                     Partitioned table "public.describe_parts"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           | not null |\s
                 v      | text    |           |          |\s
                Partition key: HASH (id)
                Indexes:
                    "describe_parts_pkey" PRIMARY KEY, hash (id)
                Number of partitions: 2 (Use \\d+ to list them.)

                """, parent.output(), parent.errors());
        Result parentVerbose = psql("-c", "\\d+ describe_parts");
        assertEquals("""
                                                Partitioned table "public.describe_parts"
                 Column |  Type   | Collation | Nullable | Default | Storage  | Compression | Stats target | Description\s
                --------+---------+-----------+----------+---------+----------+-------------+--------------+-------------
                 id     | integer |           | not null |         | plain    |             |              |\s
                 v      | text    |           |          |         | extended |             |              |\s
                Partition key: HASH (id)
                Indexes:
                    "describe_parts_pkey" PRIMARY KEY, hash (id)
                Partitions: describe_parts_0 FOR VALUES WITH (modulus 2, remainder 0),
                            describe_parts_1 FOR VALUES WITH (modulus 2, remainder 1)

                """, parentVerbose.output(), parentVerbose.errors());
        Result partition = psql("-c", "\\d describe_parts_0");
        assertEquals("""
                          Table "public.describe_parts_0"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           | not null |\s
                 v      | text    |           |          |\s
                Partition of: describe_parts FOR VALUES WITH (modulus 2, remainder 0)
                Indexes:
                    "describe_parts_0_pkey" PRIMARY KEY, hash (id)

                """, partition.output(), partition.errors());
        Result partitionVerbose = psql("-c", "\\d+ describe_parts_1");
        String parentOid = psql("-At", "-c", "select 'describe_parts'::regclass::oid").output().strip();
        assertEquals("""
                                                     Table "public.describe_parts_1"
                 Column |  Type   | Collation | Nullable | Default | Storage  | Compression | Stats target | Description\s
                --------+---------+-----------+----------+---------+----------+-------------+--------------+-------------
                 id     | integer |           | not null |         | plain    |             |              |\s
                 v      | text    |           |          |         | extended |             |              |\s
                Partition of: describe_parts FOR VALUES WITH (modulus 2, remainder 1)
                Partition constraint: satisfies_hash_partition('%s'::oid, 2, 1, id)
                Indexes:
                    "describe_parts_1_pkey" PRIMARY KEY, hash (id)
                Access method: heap

                """.formatted(parentOid), partitionVerbose.output(), partitionVerbose.errors());
        Result index = psql("-c", "\\d describe_items_name");
        assertEquals("""
                Index "public.describe_items_name"
                 Column | Type | Key? | Definition\s
                --------+------+------+------------
                 name   | text | yes  | name
                btree, for table "public.describe_items"

                """, index.output(), index.errors());
        Result functions = psql("-c", "\\df");
        assertEquals("""
                                       List of functions
                 Schema | Name | Result data type | Argument data types | Type\s
                --------+------+------------------+---------------------+------
                (0 rows)

                """, functions.output(), functions.errors());
        Result types = psql("-c", "\\dT");
        assertEquals("""
                     List of data types
                 Schema | Name | Description\s
                --------+------+-------------
                (0 rows)

                """, types.output(), types.errors());
    }

    /**
     * psql 15's list forms with sizes ({@code \dt+}, {@code \di+}, {@code \d+}, {@code \dv+},
     * {@code \l+}) call pg_table_size, pg_size_pretty and pg_database_size and read relpersistence
     * and pg_am.amname: a table's size is its pages (one 128 kB page here), an ordered index's its row
     * ids (8 bytes a row). The database's size depends on what the other tests created: matched by form.
     */
    @Test
    void psqlListsRelationsWithTheirSizes() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Result created = psql("-q", "-v", "ON_ERROR_STOP=1", "-c", "create table sizes_items (id int, name text)",
                "-c", "insert into sizes_items select g, 'item ' || g from generate_series(1, 1000) g",
                "-c", "create index sizes_items_id on sizes_items (id)", "-c", "create table sizes_empty (a int)",
                "-c", "create view sizes_view as select id from sizes_items");
        assertEquals(0, created.exitCode(), created.errors());
        Result tables = psql("-c", "\\dt+ sizes*");
        assertEquals("""
                                                       List of relations
                 Schema |    Name     | Type  |  Owner   | Persistence | Access method |  Size   | Description\s
                --------+-------------+-------+----------+-------------+---------------+---------+-------------
                 public | sizes_empty | table | parallax | permanent   | heap          | 0 bytes |\s
                 public | sizes_items | table | parallax | permanent   | heap          | 128 kB  |\s
                (2 rows)

                """, tables.output(), tables.errors());
        Result indexes = psql("-c", "\\di+ sizes*");
        assertEquals("""
                                                                 List of relations
                 Schema |      Name      | Type  |  Owner   |    Table    | Persistence | Access method |    Size    | Description\s
                --------+----------------+-------+----------+-------------+-------------+---------------+------------+-------------
                 public | sizes_items_id | index | parallax | sizes_items | permanent   | btree         | 8000 bytes |\s
                (1 row)

                """, indexes.output(), indexes.errors());
        // \d+ without a pattern lists every relation: the other tests' too.
        Result relations = psql("-c", "\\d+");
        assertTrue(relations.exitCode() == 0 && relations.output().matches(
                        "(?s).*\n public \\| sizes_items +\\| table +\\| parallax \\| permanent   \\| heap          \\| 128 kB +\\| \n.*"),
                relations.output() + relations.errors());
        Result views = psql("-c", "\\dv+ sizes*");
        assertEquals("""
                                              List of relations
                 Schema |    Name    | Type |  Owner   | Persistence |  Size   | Description\s
                --------+------------+------+----------+-------------+---------+-------------
                 public | sizes_view | view | parallax | permanent   | 0 bytes |\s
                (1 row)

                """, views.output(), views.errors());
        Result databases = psql("-At", "-c", "\\l+");
        assertTrue(databases.output().matches("parallax\\|parallax\\|UTF8\\|C\\|C\\|\\|libc\\|\\|\\d+ (bytes|kB|MB)\\|pg_default\\|\n"),
                databases.output() + databases.errors());
    }

    /**
     * psql 15's catalog commands over what Parallax has one of or none of, in PostgreSQL 15's layout:
     * one superuser role ({@code \\du}, {@code \\dg}: pg_roles and an empty pg_auth_members), no
     * extensions, procedural languages, event triggers, default privileges, per-database role
     * settings, large objects or sequences, PostgreSQL's two tablespaces, and no function for
     * {@code \\sf} (42883, as PostgreSQL for an unknown name).
     */
    @Test
    void psqlListsRolesExtensionsAndWhatParallaxHasNone() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        String roles = """
                                                   List of roles
                 Role name |                         Attributes                         | Member of\s
                -----------+------------------------------------------------------------+-----------
                 parallax  | Superuser, Create role, Create DB, Replication, Bypass RLS | {}

                """;
        Result users = psql("-c", "\\du");
        assertEquals(roles, users.output(), users.errors());
        Result groups = psql("-c", "\\dg");
        assertEquals(roles, groups.output(), groups.errors());
        Result extensions = psql("-c", "\\dx");
        assertEquals("""
                     List of installed extensions
                 Name | Version | Schema | Description\s
                ------+---------+--------+-------------
                (0 rows)

                """, extensions.output(), extensions.errors());
        Result tablespaces = psql("-c", "\\db");
        assertEquals("""
                       List of tablespaces
                    Name    |  Owner   | Location\s
                ------------+----------+----------
                 pg_default | parallax |\s
                 pg_global  | parallax |\s
                (2 rows)

                """, tablespaces.output(), tablespaces.errors());
        Result languages = psql("-c", "\\dL");
        assertEquals("""
                          List of languages
                 Name | Owner | Trusted | Description\s
                ------+-------+---------+-------------
                (0 rows)

                """, languages.output(), languages.errors());
        Result eventTriggers = psql("-c", "\\dy");
        assertEquals("""
                              List of event triggers
                 Name | Event | Owner | Enabled | Function | Tags\s
                ------+-------+-------+---------+----------+------
                (0 rows)

                """, eventTriggers.output(), eventTriggers.errors());
        Result defaultPrivileges = psql("-c", "\\ddp");
        assertEquals("""
                         Default access privileges
                 Owner | Schema | Type | Access privileges\s
                -------+--------+------+-------------------
                (0 rows)

                """, defaultPrivileges.output(), defaultPrivileges.errors());
        Result largeObjects = psql("-c", "\\dl");
        assertEquals("""
                      Large objects
                 ID | Owner | Description\s
                ----+-------+-------------
                (0 rows)

                """, largeObjects.output(), largeObjects.errors());
        Result settings = psql("-c", "\\drds");
        assertEquals(new Result(0, "", "Did not find any settings.\n"), settings);
        Result sequences = psql("-c", "\\ds psql_no_such*");
        assertEquals(new Result(0, "", "Did not find any relation named \"psql_no_such*\".\n"), sequences);
        Result function = psql("-c", "\\sf psql_no_such_function");
        assertEquals(new Result(1, "", "ERROR:  function \"psql_no_such_function\" does not exist\n"), function);
    }

    @Test
    void psqlCopiesBothWays() throws Exception {
        assumeTrue(onPath("psql"), "psql is not installed (Debian package postgresql-client)");
        Path input = directory.resolve("input.csv");
        Files.writeString(input, "id,name\n1,one\n2,\"two, too\"\n3,\n");
        Path output = directory.resolve("output.txt");
        Result copied = psql("-c", "create table psql_copied (id int, name text)",
                "-c", "\\copy psql_copied from '" + input + "' with (format csv, header)",
                "-c", "\\copy psql_copied to '" + output + "'",
                "-c", "copy (select name from psql_copied order by id desc) to stdout with (format csv)");
        assertEquals("CREATE TABLE\nCOPY 3\nCOPY 3\n\n\"two, too\"\none\n", copied.output(), copied.errors());
        assertEquals("1\tone\n2\ttwo, too\n3\t\\N\n", Files.readString(output));
    }

    @Test
    void pgbenchCustomScriptsRunWithoutFailuresInEveryProtocolMode() throws Exception {
        assumeTrue(onPath("psql") && onPath("pgbench"), "psql/pgbench are not installed (Debian packages postgresql-client, postgresql)");
        Result created = psql("-c", "create table bench_accounts (aid int, balance bigint, filler text)",
                "-c", "insert into bench_accounts select g, 0, 'x' from generate_series(1, 1000) g");
        assertEquals(0, created.exitCode(), created.errors());
        Path select = directory.resolve("select.sql");
        Files.writeString(select, """
                \\set aid random(1, 1000)
                select balance from bench_accounts where aid = :aid;
                """);
        Path insert = directory.resolve("insert.sql");
        Files.writeString(insert, """
                \\set aid random(1001, 2000)
                insert into bench_accounts values (:aid, :aid * 2, 'pgbench');
                select count(*) from bench_accounts where aid = :aid;
                """);
        Path block = directory.resolve("block.sql");
        Files.writeString(block, """
                \\set aid random(1, 1000)
                \\set delta random(-5000, 5000)
                begin;
                update bench_accounts set balance = balance + :delta where aid = :aid;
                select balance from bench_accounts where aid = :aid;
                end;
                """);
        // A count of transactions, not a duration: on a loaded machine 2 s ran too few for the
        // insert script (drawn 1 time in 5) to come up, and the check after the loop failed.
        for (String mode : List.of("simple", "extended", "prepared")) {
            Result bench = run(List.of("pgbench", "-h", "127.0.0.1", "-p", Integer.toString(server.port()), "-U", "tester",
                    "-n", "-M", mode, "-c", "2", "-j", "2", "-t", "50", "-f", select + "@3", "-f", insert + "@1", "-f", block + "@1", "parallax"));
            assertEquals(0, bench.exitCode(), mode + ": " + bench.output() + bench.errors());
            assertEquals("0", field(bench.output(), "number of failed transactions: (\\d+)"), mode + ": " + bench.output());
            assertTrue(Long.parseLong(field(bench.output(), "number of transactions actually processed: (\\d+)")) > 0,
                    mode + ": " + bench.output());
        }
        Result inserted = psql("-At", "-c", "select count(*) > 0, min(aid) > 1000 from bench_accounts where filler = 'pgbench'");
        assertEquals("t|t\n", inserted.output(), inserted.errors());
    }

    private static String field(String output, String pattern) {
        Matcher matcher = Pattern.compile(pattern).matcher(output);
        assertTrue(matcher.find(), "no \"" + pattern + "\" in: " + output);
        return matcher.group(1);
    }

    private Result psql(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("psql", "-X", "-h", "127.0.0.1", "-p", Integer.toString(server.port()),
                "-U", "tester", "-d", "parallax"));
        command.addAll(List.of(arguments));
        return run(command);
    }

    record Result(int exitCode, String output, String errors) {
    }

    private Result run(List<String> command) throws IOException, InterruptedException {
        Path output = directory.resolve("stdout.txt");
        Path errors = directory.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(output.toFile()).redirectError(errors.toFile());
        builder.environment().put("PGCONNECT_TIMEOUT", "30");
        builder.environment().remove("PGPASSWORD");
        Process process = builder.start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8),
                Files.readString(errors, StandardCharsets.UTF_8));
    }

    static boolean onPath(String program) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(entry, program))) {
                return true;
            }
        }
        return false;
    }
}
