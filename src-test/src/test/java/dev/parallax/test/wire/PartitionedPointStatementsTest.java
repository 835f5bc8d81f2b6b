package dev.parallax.test.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.cli.server.ServerOptions;
import dev.parallax.test.wire.RawClient.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The seed's pgbench statements on a hash-partitioned table, sent as {@code pgbench -M prepared}
 * sends them (one Parse, then Bind/Execute/Sync per transaction, pipelined): the point lookup runs
 * on the event loop (its prepared query is a point lookup), prunes to one partition from the Bind's
 * parameter, and must answer exactly as the general path does —
 * for a key present, a key absent, a key whose partition does not exist, a NULL and a value out
 * of range — and in order with the upserts that the statement thread runs between the lookups.
 */
class PartitionedPointStatementsTest {
    private static final int KEYS = 40;
    private static final String LOOKUP = "select * from r where id = $1";
    private static final String UPSERT = "insert into r values ($1, $2) on conflict (id) do update set v = excluded.v";
    private static WireServer server;
    /** Keys 1..KEYS that routed to partition r_2, dropped after the load: their partition no longer exists. */
    private static List<Integer> keysWithoutPartition;

    @BeforeAll
    static void startServer() throws Exception {
        server = WireServer.start(ServerOptions.loopback(0));
        try (Session session = server.database.openSession()) {
            session.execute("create table r (id int primary key, v text) partition by hash (id)").close();
            for (int remainder = 0; remainder < 4; remainder++) {
                session.execute("create table r_" + remainder + " partition of r for values with (modulus 4, remainder " + remainder + ")").close();
            }
            session.execute("insert into r select g, 'v' || g from generate_series(1, " + KEYS + ") g").close();
            keysWithoutPartition = new ArrayList<>();
            try (Result dropped = session.execute("select id from r_2 order by id")) {
                for (List<Object> row : dropped.fetchAll()) {
                    keysWithoutPartition.add(((Number) row.getFirst()).intValue());
                }
            }
            session.execute("drop table r_2").close();
        }
        assertFalse(keysWithoutPartition.isEmpty(), "some of " + KEYS + " keys hash to each of 4 partitions");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.awaitNoConnections();
        server.close();
    }

    @AfterEach
    void everyConnectionIsGone() throws Exception {
        server.assertEveryConnectionGone();
    }

    @Test
    void thePreparedLookupOfAPartitionedTableIsAPointLookup() {
        try (Session session = server.database.openSession();
             PreparedQuery lookup = session.prepare(LOOKUP)) {
            assertTrue(lookup.isPointLookup());
        }
    }

    @Test
    void pipelinedLookupsAnswerAsTheGeneralPath() throws Exception {
        List<String> expected = new ArrayList<>();
        try (Session session = server.database.openSession()) {
            // The general path, scanning every partition: no pruning, no point lookup.
            session.execute("set enable_partition_pruning = off").close();
            for (int key = 0; key <= KEYS + 1; key++) {
                try (Result result = session.execute("select id, v from r where id = " + key)) {
                    List<List<Object>> rows = result.fetchAll();
                    expected.add(rows.isEmpty() ? null : rows.getFirst().get(0) + "|" + rows.getFirst().get(1));
                }
            }
        }
        for (int key : keysWithoutPartition) {
            assertEquals(null, expected.get(key), "key " + key + " lost its partition");
        }
        assertTrue(expected.stream().filter(row -> row != null).count() > KEYS / 2);
        try (RawClient client = RawClient.connected(server.port())) {
            client.parse("lookup", LOOKUP);
            client.sync();
            assertEquals("1Z", types(client.readUntilReady()));
            for (int round = 0; round < 3; round++) {
                client.hold();
                for (int key = 0; key <= KEYS + 1; key++) {
                    bindExecuteSync(client, "lookup", String.valueOf(key));
                }
                bindExecuteSync(client, "lookup", (String) null);
                client.sendRaw(client.release());
                for (int key = 0; key <= KEYS + 1; key++) {
                    List<Message> answer = client.readUntilReady();
                    if (expected.get(key) == null) {
                        assertEquals("2CZ", types(answer), "key " + key);
                        assertEquals("SELECT 0", tag(answer.get(1)));
                    } else {
                        assertEquals("2DCZ", types(answer), "key " + key);
                        assertEquals(expected.get(key), String.join("|", values(answer.get(1))));
                        assertEquals("SELECT 1", tag(answer.get(2)));
                    }
                }
                List<Message> nullKey = client.readUntilReady();
                assertEquals("2CZ", types(nullKey));
                assertEquals("SELECT 0", tag(nullKey.get(1)));
            }
            // PostgreSQL reads an integer parameter at Bind: out of range fails the Bind, and the
            // Execute after it is skipped up to Sync.
            bindExecuteSync(client, "lookup", "99999999999");
            List<Message> outOfRange = client.readUntilReady();
            assertEquals("EZ", types(outOfRange));
            assertEquals("22003", outOfRange.getFirst().field('C'));
            assertEquals("value \"99999999999\" is out of range for type integer", outOfRange.getFirst().field('M'));
            bindExecuteSync(client, "lookup", "1");
            assertEquals("2DCZ", types(client.readUntilReady()));
        }
    }

    @Test
    void lookupsSeeTheUpsertsPipelinedBeforeThemAndAnUpsertWithoutPartitionFails() throws Exception {
        int missing = keysWithoutPartition.getFirst();
        // A key of a partition that exists, deleted first: the upsert inserts it, then updates it.
        int fresh = KEYS;
        while (keysWithoutPartition.contains(fresh)) {
            fresh--;
        }
        try (Session session = server.database.openSession()) {
            session.execute("delete from r where id = " + fresh).close();
        }
        try (RawClient client = RawClient.connected(server.port())) {
            client.parse("lookup", LOOKUP);
            client.parse("upsert", UPSERT);
            client.sync();
            assertEquals("11Z", types(client.readUntilReady()));
            client.hold();
            // An insert, then an update of the same key, each followed by a lookup on the event loop.
            bindExecuteSync(client, "upsert", String.valueOf(fresh), "inserted");
            bindExecuteSync(client, "lookup", String.valueOf(fresh));
            bindExecuteSync(client, "upsert", String.valueOf(fresh), "updated");
            bindExecuteSync(client, "lookup", String.valueOf(fresh));
            // No partition for the key: 23514 as PostgreSQL, the lookup after it in the same Sync skipped.
            client.bind("", "upsert", String.valueOf(missing), "lost");
            client.execute("", 0);
            client.bind("", "lookup", String.valueOf(missing));
            client.execute("", 0);
            client.sync();
            bindExecuteSync(client, "lookup", String.valueOf(missing));
            client.sendRaw(client.release());

            List<Message> inserted = client.readUntilReady();
            assertEquals("2CZ", types(inserted));
            assertEquals("INSERT 0 1", tag(inserted.get(1)));
            List<Message> afterInsert = client.readUntilReady();
            assertEquals("2DCZ", types(afterInsert));
            assertEquals(List.of(String.valueOf(fresh), "inserted"), values(afterInsert.get(1)));
            List<Message> updated = client.readUntilReady();
            assertEquals("2CZ", types(updated));
            assertEquals("INSERT 0 1", tag(updated.get(1)));
            List<Message> afterUpdate = client.readUntilReady();
            assertEquals("2DCZ", types(afterUpdate));
            assertEquals(List.of(String.valueOf(fresh), "updated"), values(afterUpdate.get(1)));
            List<Message> failed = client.readUntilReady();
            assertEquals("2EZ", types(failed));
            assertEquals("23514", failed.get(1).field('C'));
            assertEquals("no partition of relation \"r\" found for row", failed.get(1).field('M'));
            assertEquals("Partition key of the failing row contains (id) = (" + missing + ").", failed.get(1).field('D'));
            List<Message> afterFailure = client.readUntilReady();
            assertEquals("2CZ", types(afterFailure));
            assertEquals("SELECT 0", tag(afterFailure.get(1)));
        }
        try (Session session = server.database.openSession();
             Result row = session.execute("select v from r where id = " + fresh)) {
            assertEquals(List.of(List.of("updated")), row.fetchAll());
        }
    }

    private static void bindExecuteSync(RawClient client, String statement, String... parameters) throws Exception {
        client.bind("", statement, parameters);
        client.execute("", 0);
        client.sync();
    }

    private static String types(List<Message> messages) {
        StringBuilder types = new StringBuilder();
        for (Message message : messages) {
            types.append(message.type());
        }
        return types.toString();
    }

    /** A CommandComplete's tag. */
    private static String tag(Message complete) {
        assertEquals('C', complete.type());
        return new String(complete.body(), 0, complete.body().length - 1, StandardCharsets.UTF_8);
    }

    /** A DataRow's text values (null for NULL). */
    private static List<String> values(Message dataRow) {
        assertEquals('D', dataRow.type());
        byte[] body = dataRow.body();
        int columns = (body[0] & 0xFF) << 8 | body[1] & 0xFF;
        List<String> values = new ArrayList<>();
        int position = 2;
        for (int column = 0; column < columns; column++) {
            int length = (body[position] & 0xFF) << 24 | (body[position + 1] & 0xFF) << 16 | (body[position + 2] & 0xFF) << 8
                    | body[position + 3] & 0xFF;
            position += 4;
            values.add(length < 0 ? null : new String(body, position, length, StandardCharsets.UTF_8));
            position += Math.max(length, 0);
        }
        return values;
    }
}
