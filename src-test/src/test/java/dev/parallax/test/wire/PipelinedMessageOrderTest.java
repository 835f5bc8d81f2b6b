package dev.parallax.test.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parallax.Session;
import dev.parallax.cli.server.ServerOptions;
import dev.parallax.test.wire.RawClient.Message;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server answers every message in the order the client sent it, whichever thread runs it: the
 * event loop answers Bind, Describe, Sync, Close and Execute of a point lookup itself when it owns
 * the connection, the statement thread everything else (Parse, scans, big results written in
 * several flushes, resumed portals). Clients pipeline random mixes of both kinds — with row limits
 * and named portals, errors that skip to Sync, Flush, simple queries — in one write cut at random
 * places, several clients at once, and check each answer message by message against what
 * PostgreSQL sends. Rounds per client: system property {@code parallax.test.pipelineRounds} (default 60).
 */
class PipelinedMessageOrderTest {
    private static final int CLIENTS = 4;
    private static final int ROUNDS = Integer.getInteger("parallax.test.pipelineRounds", 60);
    private static final int KEYS = 100;
    private static final int LIMITED_ROWS = 50;
    private static final int BIG_ROWS = 20_000;
    private static WireServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = WireServer.start(ServerOptions.loopback(0));
        // Through the embedding API, not the socket: the first unique index of a fresh JVM compiles its
        // map's code, which on a loaded machine can outlast the client's read timeout.
        try (Session session = server.database.openSession()) {
            session.execute("create table lookup (id int primary key, v text)").close();
            session.execute("insert into lookup select g, 'v' || g from generate_series(1, " + KEYS + ") g").close();
        }
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
    void pipelinedMixesOfEventLoopAndStatementThreadMessagesAreAnsweredInOrder() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int client = 0; client < CLIENTS; client++) {
                long seed = 7919L * (client + 1);
                running.add(clients.submit(() -> {
                    runClient(seed);
                    return null;
                }));
            }
            for (Future<?> future : running) {
                future.get();
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /** The statement thread's last answers still unsent while the event loop answers the next messages. */
    @Test
    void aBigResultFromTheStatementThreadIsFollowedByPointLookupsInOrder() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            prepare(client);
            for (int round = 0; round < ROUNDS; round++) {
                client.hold();
                Script script = new Script();
                script.big(client);
                for (int lookup = 0; lookup < 5; lookup++) {
                    script.pointLookup(client, "", 1 + (round + lookup) % KEYS, false);
                }
                script.sync(client);
                script.check(client, client.release());
            }
        }
    }

    /** The failing case of a fresh-clone CI run, in a loop: a parsed scan executed in parts. */
    @Test
    void rowLimitedExecutesAfterParseKeepParseCompleteAndBindCompleteFirst() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            prepare(client);
            for (int round = 0; round < ROUNDS * 2; round++) {
                client.hold();
                Script script = new Script();
                client.parse("", "select g from generate_series(1, 10000) g");
                script.expect('1');
                script.limited(client, "", "", 10_000, 3, 2);
                script.sync(client);
                script.check(client, client.release());
            }
        }
    }

    /**
     * More messages than the server queues for the statement thread (it stops reading the socket
     * past 64 and resumes below 16) behind one it must run there: reading stops and resumes, and
     * every answer still comes, in order.
     */
    @Test
    void aLongPipelineBehindAStatementThreadMessageStopsAndResumesReading() throws Exception {
        try (RawClient client = RawClient.connected(server.port())) {
            prepare(client);
            Random random = new Random(31);
            for (int round = 0; round < ROUNDS; round++) {
                client.hold();
                Script script = new Script();
                script.scan(client);
                for (int lookup = 0; lookup < 100; lookup++) {
                    script.pointLookup(client, "", 1 + random.nextInt(KEYS), false);
                }
                script.sync(client);
                script.check(client, client.release(), random);
            }
        }
    }

    private static void runClient(long seed) throws IOException {
        Random random = new Random(seed);
        try (RawClient client = RawClient.connected(server.port())) {
            prepare(client);
            for (int round = 0; round < ROUNDS; round++) {
                client.hold();
                Script script = new Script();
                if (random.nextInt(4) == 0) {
                    script.simpleQuery(client, 1 + random.nextInt(KEYS));
                }
                int operations = 2 + random.nextInt(12);
                for (int operation = 0; operation < operations; operation++) {
                    script.randomOperation(client, random);
                }
                script.sync(client);
                byte[] bytes = client.release();
                script.check(client, bytes, random);
            }
            client.query("select 1");
            assertEquals("TDCZ", types(client.readUntilReady()));
        }
    }

    /** The named statements every script uses, prepared once per connection. */
    private static void prepare(RawClient client) throws IOException {
        client.parse("point", "select v from lookup where id = $1");
        client.parse("scan", "select count(*) from generate_series(1, 20000) g where g % 3 = 0");
        client.parse("rows", "select g from generate_series(1, " + LIMITED_ROWS + ") g");
        client.parse("big", "select g from generate_series(1, " + BIG_ROWS + ") g");
        client.sync();
        assertEquals("1111Z", types(client.readUntilReady()));
    }

    /** An expected backend message: its type, and for a DataRow or CommandComplete its text (null: any). */
    private record Expected(char type, String text) {
    }

    /**
     * One pipelined round: sends (into the client's held bytes) and records what PostgreSQL answers.
     * After an error everything up to Sync is answered with nothing.
     */
    private static final class Script {
        private final List<Expected> expected = new ArrayList<>();
        private boolean failed;
        private int readyCount;

        void expect(char type) {
            expect(type, null);
        }

        void expect(char type, String text) {
            if (!failed) {
                expected.add(new Expected(type, text));
            }
        }

        void error(String code) {
            expect('E', code);
            failed = true;
        }

        void sync(RawClient client) throws IOException {
            client.sync();
            failed = false;
            expect('Z');
            readyCount++;
        }

        void simpleQuery(RawClient client, int id) throws IOException {
            client.query("select v from lookup where id = " + id);
            expect('T');
            expect('D', "v" + id);
            expect('C', "SELECT 1");
            expect('Z');
            readyCount++;
        }

        void pointLookup(RawClient client, String portal, int id, boolean describe) throws IOException {
            client.bind(portal, "point", Integer.toString(id));
            expect('2');
            if (describe) {
                client.describe('P', portal);
                expect('T');
            }
            client.execute(portal, 0);
            boolean found = id >= 1 && id <= KEYS;
            if (found) {
                expect('D', "v" + id);
            }
            expect('C', found ? "SELECT 1" : "SELECT 0");
            if (!portal.isEmpty()) {
                client.close('P', portal);
                expect('3');
            }
        }

        void scan(RawClient client) throws IOException {
            client.bind("", "scan");
            client.execute("", 0);
            expect('2');
            expect('D', "6666");
            expect('C', "SELECT 1");
        }

        void big(RawClient client) throws IOException {
            client.bind("", "big");
            client.execute("", 0);
            expect('2');
            for (int row = 1; row <= BIG_ROWS; row++) {
                expect('D', Integer.toString(row));
            }
            expect('C', "SELECT " + BIG_ROWS);
        }

        /** A parsed (not prepared) query over the unnamed statement: a point lookup, or not. */
        void parsed(RawClient client, int id, boolean pointLookup) throws IOException {
            client.parse("", pointLookup ? "select v from lookup where id = $1" : "select v || '' from lookup where id = $1");
            client.bind("", "", Integer.toString(id));
            client.execute("", 0);
            expect('1');
            expect('2');
            expect('D', "v" + id);
            expect('C', "SELECT 1");
        }

        /** Executes a portal over {@code statement} ({@code rows} rows) in parts of {@code first}, {@code second}, then the rest. */
        void limited(RawClient client, String portal, String statement, int rows, int first, int second) throws IOException {
            client.bind(portal, statement);
            expect('2');
            int next = 1;
            for (int part : new int[] {first, second}) {
                client.execute(portal, part);
                for (int row = 0; row < part; row++) {
                    expect('D', Integer.toString(next++));
                }
                expect('s');
            }
            client.execute(portal, 0);
            int rest = rows - next + 1;
            while (next <= rows) {
                expect('D', Integer.toString(next++));
            }
            expect('C', "SELECT " + rest);
            if (!portal.isEmpty()) {
                client.close('P', portal);
                expect('3');
            }
        }

        void randomOperation(RawClient client, Random random) throws IOException {
            switch (random.nextInt(14)) {
                case 0, 1, 2, 3 -> pointLookup(client, "", 1 + random.nextInt(KEYS), false);
                case 4 -> pointLookup(client, "named", 1 + random.nextInt(KEYS + 5), random.nextBoolean());
                case 5 -> scan(client);
                case 6 -> parsed(client, 1 + random.nextInt(KEYS), random.nextBoolean());
                case 7 -> limited(client, random.nextBoolean() ? "cursor" : "", "rows", LIMITED_ROWS,
                        1 + random.nextInt(20), 1 + random.nextInt(20));
                case 8 -> {
                    if (random.nextInt(4) == 0) {
                        big(client);
                    } else {
                        client.flush();
                    }
                }
                case 9 -> {
                    client.describe('S', "point");
                    expect('t');
                    expect('T');
                }
                case 10 -> sync(client);
                case 11 -> {
                    switch (random.nextInt(3)) {
                        case 0 -> {
                            client.bind("", "missing");
                            error("26000");
                        }
                        case 1 -> {
                            client.bind("", "point", "not a number");
                            error("22P02");
                        }
                        default -> {
                            client.execute("no_such_portal", 0);
                            error("34000");
                        }
                    }
                }
                case 12 -> {
                    // A statement closed and prepared again: Close is answered at once, Parse by the statement thread.
                    client.close('S', "point");
                    client.parse("point", "select v from lookup where id = $1");
                    expect('3');
                    expect('1');
                }
                default -> {
                    client.close('P', "no_such_portal");
                    expect('3');
                }
            }
        }

        void check(RawClient client, byte[] bytes) throws IOException {
            check(client, bytes, null);
        }

        /**
         * Sends the round (cut into random pieces when {@code random} is given) and compares the
         * answers. Sends from another thread while this one reads, as a pipelining client must: a
         * server stops reading while its answers wait for the client (back-pressure), and a client
         * that only reads once it sent everything would wait for it forever.
         */
        void check(RawClient client, byte[] bytes, Random random) throws IOException {
            List<byte[]> pieces = new ArrayList<>();
            int at = 0;
            while (at < bytes.length) {
                int piece = random == null ? bytes.length : Math.min(bytes.length - at, 1 + random.nextInt(random.nextBoolean() ? 16 : 512));
                pieces.add(Arrays.copyOfRange(bytes, at, at + piece));
                at += piece;
            }
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                try {
                    for (byte[] piece : pieces) {
                        client.sendRaw(piece);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, Thread::startVirtualThread);
            List<Message> answers = new ArrayList<>();
            for (int ready = 0; ready < readyCount; ready++) {
                answers.addAll(client.readUntilReady());
            }
            sent.join();
            for (int index = 0; index < Math.max(answers.size(), expected.size()); index++) {
                if (index >= answers.size() || index >= expected.size()) {
                    fail("answer " + index + ": expected " + summary(expected, index) + ", got " + answerSummary(answers, index));
                }
                Expected wanted = expected.get(index);
                Message got = answers.get(index);
                if (got.type() != wanted.type() || wanted.text() != null && !wanted.text().equals(textOf(got))) {
                    fail("answer " + index + ": expected " + summary(expected, index) + ", got " + answerSummary(answers, index));
                }
            }
        }

        private static String textOf(Message message) {
            return switch (message.type()) {
                case 'D' -> dataRowValue(message);
                case 'C' -> message.text().substring(0, message.text().length() - 1);
                case 'E' -> message.field('C');
                default -> null;
            };
        }

        private static String summary(List<Expected> messages, int index) {
            StringBuilder text = new StringBuilder();
            for (int at = Math.max(0, index - 3); at < Math.min(messages.size(), index + 4); at++) {
                text.append(at == index ? "[" : " ").append(messages.get(at).type());
                if (messages.get(at).text() != null) {
                    text.append('(').append(messages.get(at).text()).append(')');
                }
                text.append(at == index ? "]" : " ");
            }
            return text.toString();
        }

        private static String answerSummary(List<Message> messages, int index) {
            StringBuilder text = new StringBuilder();
            for (int at = Math.max(0, index - 3); at < Math.min(messages.size(), index + 4); at++) {
                String value = textOf(messages.get(at));
                text.append(at == index ? "[" : " ").append(messages.get(at).type());
                if (value != null) {
                    text.append('(').append(value).append(')');
                }
                text.append(at == index ? "]" : " ");
            }
            return text.toString();
        }
    }

    /** The messages' types, with each error's SQLSTATE and message in parentheses. */
    private static String types(List<Message> messages) {
        StringBuilder types = new StringBuilder();
        for (Message message : messages) {
            types.append(message.type());
            if (message.type() == 'E') {
                types.append('(').append(message.field('C')).append(' ').append(message.field('M')).append(')');
            }
        }
        return types.toString();
    }

    /** The first column of a DataRow as text. */
    private static String dataRowValue(Message dataRow) {
        byte[] body = dataRow.body();
        int length = ((body[2] & 0xFF) << 24) | ((body[3] & 0xFF) << 16) | ((body[4] & 0xFF) << 8) | (body[5] & 0xFF);
        return new String(body, 6, length, StandardCharsets.UTF_8);
    }
}
