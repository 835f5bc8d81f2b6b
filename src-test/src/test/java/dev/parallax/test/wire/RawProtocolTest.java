package dev.parallax.test.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parallax.cli.server.ServerOptions;
import dev.parallax.test.wire.RawClient.Message;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The protocol byte by byte: startup answers, row limits with PortalSuspended, errors in the
 * extended protocol, and bad clients (garbage, over-long and truncated messages, hanging up
 * mid-query) that must lose their connection without hurting the server or other sessions.
 */
class RawProtocolTest {
    private static final int MAX_MESSAGE = 4096;
    private static WireServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = WireServer.start(ServerOptions.loopback(0).withMaxMessageSize(MAX_MESSAGE));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @AfterEach
    void everyConnectionIsGoneAndNoQueryMemoryIsHeld() throws Exception {
        server.assertEveryConnectionGone();
        assertEquals(0, server.queryMemory());
    }

    @Test
    void sslRequestIsRefusedWithNThenStartupGoesOn() throws Exception {
        try (RawClient client = new RawClient(server.port())) {
            ByteArrayOutputStream ssl = new ByteArrayOutputStream();
            RawClient.writeInt(ssl, 80877103);
            client.sendUntyped(ssl.toByteArray());
            assertEquals('N', client.readByte());
            client.startup("raw");
            List<Message> messages = client.readUntilReady();
            assertEquals('R', messages.getFirst().type());
            assertTrue(messages.stream().anyMatch(message -> message.type() == 'S'
                    && message.text().equals("server_version\u000015.0 (Parallax test)\u0000")));
            assertTrue(messages.stream().anyMatch(message -> message.type() == 'K'));
            assertEquals("I", new String(messages.getLast().body(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void otherProtocolVersionsAreRefused() throws Exception {
        try (RawClient client = new RawClient(server.port())) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            RawClient.writeInt(body, 2 << 16);
            RawClient.cstring(body, "user");
            RawClient.cstring(body, "raw");
            body.write(0);
            client.sendUntyped(body.toByteArray());
            Message error = client.read();
            assertEquals('E', error.type());
            assertEquals("FATAL", error.field('S'));
            assertEquals("0A000", error.field('C'));
            assertEquals("unsupported frontend protocol 2.0: server supports 3.0 to 3.0", error.field('M'));
            assertTrue(client.closedByServer());
        }
    }

    @Test
    void rowLimitSuspendsThePortalAndTheNextExecuteResumesIt() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.parse("", "select g from generate_series(1, 10000) g");
            client.bind("", "");
            client.execute("", 3);
            client.execute("", 2);
            client.execute("", 0);
            client.sync();
            List<Message> messages = client.readUntilReady();
            assertEquals("12DDDsDDs", types(messages.subList(0, 9)));
            assertEquals("1", dataRowValue(messages.get(2)));
            assertEquals("3", dataRowValue(messages.get(4)));
            assertEquals("5", dataRowValue(messages.get(7)));
            Message complete = messages.get(messages.size() - 2);
            assertEquals('C', complete.type());
            // As PostgreSQL: the tag counts the rows of the last Execute only.
            assertEquals("SELECT 9995\u0000", complete.text());
            assertEquals(10_000, countOf(messages, 'D'));
        }
    }

    /** As PostgreSQL: a text value of an integer parameter is read by Bind, so a bad one fails the Bind. */
    @Test
    void aBadIntegerParameterFailsTheBind() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.parse("", "select $1::int + 1");
            client.bind("", "", " 41 ");
            client.execute("", 0);
            client.sync();
            List<Message> answered = client.readUntilReady();
            assertEquals("12DCZ", types(answered));
            assertEquals("42", dataRowValue(answered.get(2)));
            client.parse("", "select $1::int + 1");
            client.bind("", "", "forty");
            client.execute("", 0);
            client.sync();
            List<Message> invalid = client.readUntilReady();
            assertEquals("1EZ", types(invalid));
            assertEquals("22P02", invalid.get(1).field('C'));
            assertEquals("invalid input syntax for type integer: \"forty\"", invalid.get(1).field('M'));
            client.bind("", "", "99999999999");
            client.sync();
            List<Message> outOfRange = client.readUntilReady();
            assertEquals("EZ", types(outOfRange));
            assertEquals("22003", outOfRange.getFirst().field('C'));
            assertEquals("value \"99999999999\" is out of range for type integer", outOfRange.getFirst().field('M'));
        }
    }

    /** array_send's layout, as pgJDBC sends int[]: dimensions, flags, element OID, then length and lower bound, then the elements. */
    private static byte[] binaryArray(int dimensions, int elementOid, int lowerBound, Integer... elements) {
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(20 + 8 * elements.length);
        buffer.putInt(dimensions).putInt(0).putInt(elementOid);
        if (dimensions > 0) {
            buffer.putInt(elements.length).putInt(lowerBound);
        }
        for (Integer element : elements) {
            if (element == null) {
                buffer.putInt(-1);
            } else {
                buffer.putInt(4).putInt(element);
            }
        }
        return java.util.Arrays.copyOf(buffer.array(), buffer.position());
    }

    @Test
    void binaryArrayParametersAreReadAsArraySendWritesThem() throws Exception {
        int int4 = 23;
        int int4Array = 1007;
        try (RawClient client = RawClient.connected(server.port())) {
            client.parse("s", "select array_to_string($1::int[], ',', '*'), 2 = any($1)", int4Array);
            client.bindBinary("", "s", binaryArray(1, int4, 1, 1, null, 2));
            client.execute("", 0);
            client.bindBinary("", "s", binaryArray(0, int4, 1));
            client.execute("", 0);
            client.sync();
            List<Message> answered = client.readUntilReady();
            assertEquals("12DC2DCZ", types(answered));
            assertEquals("1,*,2", dataRowValue(answered.get(2)));
            assertEquals("", dataRowValue(answered.get(5)));
            String[][] damaged = {
                    {"42804", "wrong element type"},
                    {"22023", "invalid number of dimensions: -1"},
                    {"0A000", "multidimensional arrays are not supported"},
                    {"22P03", "incorrect binary data format in bind parameter 1"},
                    {"0A000", "binary array parameter $1 has lower bound 0; send arrays not starting at 1 as text"}};
            byte[] truncated = binaryArray(1, int4, 1, 7, 8);
            byte[][] values = {binaryArray(1, 20, 1, 1), binaryArray(-1, int4, 1), binaryArray(2, int4, 1, 1),
                    java.util.Arrays.copyOf(truncated, truncated.length - 2), binaryArray(1, int4, 0, 1)};
            for (int index = 0; index < values.length; index++) {
                client.bindBinary("", "s", values[index]);
                client.execute("", 0);
                client.sync();
                List<Message> failed = client.readUntilReady();
                assertEquals("EZ", types(failed));
                assertEquals(damaged[index][0], failed.getFirst().field('C'));
                assertEquals(damaged[index][1], failed.getFirst().field('M'));
            }
            client.bindBinary("", "s", binaryArray(1, int4, 1, 2));
            client.execute("", 0);
            client.sync();
            List<Message> again = client.readUntilReady();
            assertEquals("2DCZ", types(again));
        }
    }

    /** As PostgreSQL 15: CREATE TABLE ... AS and SELECT ... INTO complete with SELECT n, describe as NoData, notice with 42P07. */
    @Test
    void createTableAsCompletesWithTheRowCountInBothProtocols() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.query("create table raw_ctas as select g from generate_series(1, 2) g");
            List<Message> simple = client.readUntilReady();
            assertEquals("CZ", types(simple));
            assertEquals("SELECT 2\u0000", simple.getFirst().text());
            client.parse("", "select g into raw_ctas2 from raw_ctas where g > 1");
            client.bind("", "");
            client.describe('P', "");
            client.execute("", 0);
            client.sync();
            List<Message> extended = client.readUntilReady();
            assertEquals("12nCZ", types(extended));
            assertEquals("SELECT 1\u0000", extended.get(3).text());
            client.query("create table if not exists raw_ctas as select 1");
            List<Message> skipped = client.readUntilReady();
            assertEquals("NCZ", types(skipped));
            assertEquals("42P07", skipped.getFirst().field('C'));
            assertEquals("CREATE TABLE AS\u0000", skipped.get(1).text());
            client.query("drop table raw_ctas, raw_ctas2");
            assertEquals("CZ", types(client.readUntilReady()));
        }
    }

    @Test
    void anErrorInTheExtendedProtocolSkipsToSync() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.parse("", "select * from missing_table");
            client.bind("", "");
            client.execute("", 0);
            client.sync();
            List<Message> messages = client.readUntilReady();
            assertEquals("EZ", types(messages));
            assertEquals("42P01", messages.getFirst().field('C'));
            assertEquals("15", messages.getFirst().field('P'));
            client.query("select 1; select 2");
            assertEquals("TDCTDCZ", types(client.readUntilReady()));
        }
    }

    @Test
    void readyForQueryReportsTheTransactionBlock() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.query("begin");
            List<Message> begun = client.readUntilReady();
            assertEquals("CZ", types(begun));
            assertEquals("T", begun.getLast().text());
            client.query("select 1; select * from missing_table; select 2");
            List<Message> failed = client.readUntilReady();
            assertEquals("TDCEZ", types(failed));
            assertEquals("42P01", failed.get(3).field('C'));
            assertEquals("E", failed.getLast().text());
            // In a failed block the extended protocol is refused too, and Sync reports 'E'.
            client.parse("", "select 3");
            client.sync();
            List<Message> ignored = client.readUntilReady();
            assertEquals("EZ", types(ignored));
            assertEquals("25P02", ignored.getFirst().field('C'));
            assertEquals("current transaction is aborted, commands ignored until end of transaction block",
                    ignored.getFirst().field('M'));
            assertEquals("E", ignored.getLast().text());
            client.query("rollback");
            List<Message> ended = client.readUntilReady();
            assertEquals("ROLLBACK\u0000", ended.getFirst().text());
            assertEquals("I", ended.getLast().text());
            client.query("commit");
            List<Message> outside = client.readUntilReady();
            assertEquals("NCZ", types(outside));
            assertEquals("WARNING", outside.getFirst().field('S'));
            assertEquals("25P01", outside.getFirst().field('C'));
            assertEquals("I", outside.getLast().text());
        }
    }

    @Test
    void errorPositionsCountFromTheStartOfAMultiStatementQuery() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.query("select 1; select nope from missing");
            List<Message> messages = client.readUntilReady();
            assertEquals("TDCEZ", types(messages));
            assertEquals("42P01", messages.get(3).field('C'));
            assertEquals("28", messages.get(3).field('P'));
        }
    }

    @Test
    void emptyQueryGetsEmptyQueryResponse() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.query("  ;  ");
            assertEquals("IZ", types(client.readUntilReady()));
        }
    }

    @Test
    void garbageStartupPacketClosesTheConnection() throws Exception {
        try (RawClient client = new RawClient(server.port())) {
            client.sendRaw(new byte[] {0, 0, 0, 2, 'x', 'y'});
            Message error = client.read();
            assertEquals("08P01", error.field('C'));
            assertEquals("invalid length of startup packet", error.field('M'));
            assertTrue(client.closedByServer());
        }
        assertOtherSessionsWork();
    }

    @Test
    void unknownMessageTypeIsFatal() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.send('j', new byte[] {1, 2, 3});
            Message error = client.read();
            assertEquals("FATAL", error.field('S'));
            assertEquals("08P01", error.field('C'));
            assertEquals("invalid frontend message type 106", error.field('M'));
            assertTrue(client.closedByServer());
        }
        assertOtherSessionsWork();
    }

    @Test
    void messageLongerThanTheLimitIsRefusedBeforeItIsRead() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            // Only the header: the server must refuse on the length word, not wait for 1 MB.
            client.sendRaw(new byte[] {'Q', 0, 0x10, 0, 0});
            Message error = client.read();
            assertEquals("FATAL", error.field('S'));
            assertEquals("08P01", error.field('C'));
            assertEquals("invalid message length", error.field('M'));
            assertTrue(client.closedByServer());
        }
        assertOtherSessionsWork();
    }

    @Test
    void malformedBindBodyIsFatal() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.parse("", "select 1");
            // Says one parameter follows, then ends.
            client.send('B', new byte[] {0, 0, 0, 0, 0, 1});
            List<Message> messages = List.of(client.read(), client.read());
            assertEquals("1E", types(messages));
            assertEquals("08P01", messages.get(1).field('C'));
            assertTrue(client.closedByServer());
        }
        assertOtherSessionsWork();
    }

    @Test
    void truncatedMessageThenHangUpLeavesNothingBehind() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.sendRaw(new byte[] {'Q', 0, 0, 0, 100, 's', 'e', 'l'});
        }
        assertOtherSessionsWork();
    }

    @Test
    void clientHangingUpMidQueryCancelsItAndFreesItsMemory() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.query("select g, count(*) from generate_series(1, 2000000000) g group by g order by g");
            for (int attempt = 0; attempt < 500 && server.database.runningStatements().isEmpty(); attempt++) {
                Thread.sleep(10);
            }
            assertEquals(1, server.database.runningStatements().size());
        }
        for (int attempt = 0; attempt < 1000 && !server.database.runningStatements().isEmpty(); attempt++) {
            Thread.sleep(10);
        }
        assertTrue(server.database.runningStatements().isEmpty());
        assertOtherSessionsWork();
    }

    @Test
    void aClientThatDoesNotReadHoldsItsQueryBackNotTheServer() throws Exception {
        try (RawClient reader = RawClient.connected(server.port())) {
            // 1M rows of ~20 bytes is far more than the socket buffers and the 1 MB high water mark hold.
            reader.query("select g, g * 2 from generate_series(1, 1000000) g");
            for (int attempt = 0; attempt < 500 && server.database.runningStatements().isEmpty(); attempt++) {
                Thread.sleep(10);
            }
            Thread.sleep(1000);
            // The producer waits for the reader: its statement is still running, and others are served.
            assertEquals(1, server.database.runningStatements().size());
            assertOtherSessionsWork();
            assertEquals('T', reader.read().type());
            long dataRows = 0;
            Message message;
            while ((message = reader.read()).type() == 'D') {
                dataRows++;
            }
            assertEquals(1_000_000, dataRows);
            assertEquals("SELECT 1000000\u0000", message.text());
            assertEquals('Z', reader.read().type());
        }
    }

    private static void assertOtherSessionsWork() throws Exception {
        try (RawClient other = RawClient.connected(server.port())) {
            other.query("select 40 + 2");
            List<Message> messages = other.readUntilReady();
            assertEquals("TDCZ", types(messages));
            assertEquals("42", dataRowValue(messages.get(1)));
        }
    }

    /**
     * As PostgreSQL: the names of SQL PREPARE and of the extended protocol's named statements are one
     * namespace per session, so each kind is refused a name the other took (42P05), Bind and Close
     * reach SQL-prepared statements, and EXECUTE and DEALLOCATE reach protocol-level ones.
     */
    @Test
    void sqlAndProtocolPreparedStatementsShareOneNamespace() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            client.query("prepare q(int) as select $1 + 1");
            List<Message> prepared = client.readUntilReady();
            assertEquals("CZ", types(prepared));
            assertEquals("PREPARE\u0000", prepared.getFirst().text());
            client.parse("q", "select 1");
            client.sync();
            List<Message> taken = client.readUntilReady();
            assertEquals("EZ", types(taken));
            assertEquals("42P05", taken.getFirst().field('C'));
            assertEquals("prepared statement \"q\" already exists", taken.getFirst().field('M'));
            client.bind("", "q", "41");
            client.execute("", 0);
            client.sync();
            List<Message> bound = client.readUntilReady();
            assertEquals("2DCZ", types(bound));
            assertEquals("42", dataRowValue(bound.get(1)));

            client.parse("s1", "select $1::int * 2");
            client.sync();
            assertEquals("1Z", types(client.readUntilReady()));
            client.query("prepare s1 as select 1");
            List<Message> takenBySql = client.readUntilReady();
            assertEquals("EZ", types(takenBySql));
            assertEquals("42P05", takenBySql.getFirst().field('C'));
            client.query("execute s1(21)");
            List<Message> executed = client.readUntilReady();
            assertEquals("TDCZ", types(executed));
            assertEquals("42", dataRowValue(executed.get(1)));
            client.query("deallocate s1");
            assertEquals("CZ", types(client.readUntilReady()));
            client.bind("", "s1", "1");
            client.sync();
            List<Message> gone = client.readUntilReady();
            assertEquals("EZ", types(gone));
            assertEquals("26000", gone.getFirst().field('C'));
            assertEquals("prepared statement \"s1\" does not exist", gone.getFirst().field('M'));

            client.close('S', "q");
            client.sync();
            assertEquals("3Z", types(client.readUntilReady()));
            client.query("execute q(1)");
            List<Message> closed = client.readUntilReady();
            assertEquals("EZ", types(closed));
            assertEquals("26000", closed.getFirst().field('C'));
        }
    }

    private static String types(List<Message> messages) {
        StringBuilder types = new StringBuilder();
        for (Message message : messages) {
            types.append(message.type());
        }
        return types.toString();
    }

    private static int countOf(List<Message> messages, char type) {
        int count = 0;
        for (Message message : messages) {
            if (message.type() == type) {
                count++;
            }
        }
        return count;
    }

    /** The first column of a DataRow as text. */
    private static String dataRowValue(Message dataRow) {
        byte[] body = dataRow.body();
        int length = ((body[2] & 0xFF) << 24) | ((body[3] & 0xFF) << 16) | ((body[4] & 0xFF) << 8) | (body[5] & 0xFF);
        return new String(body, 6, length, StandardCharsets.UTF_8);
    }
}
