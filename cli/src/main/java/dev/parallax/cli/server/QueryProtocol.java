package dev.parallax.cli.server;

import dev.parallax.Notice;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.planner.ParameterBinder;
import dev.parallax.planner.statement.StatementSplitter;
import io.netty.buffer.ByteBuf;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The query phase of one connection, on its statement thread: the simple query protocol (Query,
 * several statements per message) and the extended one (Parse, Bind, Describe, Execute, Close,
 * Sync, Flush with named and unnamed statements and portals). An error in the extended protocol
 * discards messages until Sync, as PostgreSQL does; each Sync ends the implicit transaction and
 * with it all portals. ReadyForQuery reports the session's transaction block ('I', 'T' or 'E'), and
 * any error reported inside a block fails it.
 *
 * <p>Used by one thread at a time: the statement thread, or the event loop for the messages
 * {@link #isImmediate} admits while it owns the connection (see {@link PgConnection}).
 */
final class QueryProtocol {
    private static final String UNNAMED = "";

    private final PgConnection connection;
    private final Session session;
    private final BackendWriter writer;
    private final ValueEncoder encoder;
    private final Map<String, ServerStatement> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    /** After an error in the extended protocol: messages up to the next Sync are ignored. */
    private boolean skipUntilSync;
    /** The TimeZone the client was last told of (ParameterStatus), sent again when a statement changes it. */
    private String reportedTimeZone;

    QueryProtocol(PgConnection connection, Session session, BackendWriter writer) {
        this.connection = connection;
        this.session = session;
        this.writer = writer;
        this.encoder = new ValueEncoder(session.settings());
        this.reportedTimeZone = session.settings().show("TimeZone");
    }

    /** Serves messages until Terminate or disconnection. */
    void run() {
        try {
            while (true) {
                FrontendMessage message = connection.awaitMessage();
                if (message.type() == FrontendMessage.TERMINATE) {
                    return;
                }
                if (skipUntilSync && message.type() != FrontendMessage.SYNC) {
                    continue;
                }
                handle(message);
            }
        } finally {
            closeAll();
        }
    }

    /**
     * Whether {@code message} answers at once, so the event loop may run it: it never plans, runs a
     * query past a point lookup, waits for the client or for query workers. Describe, Flush, Bind
     * and Sync, Close of a statement, Execute of a point lookup, and anything skipped after an
     * error. Bind, Sync, Close of a portal and Execute qualify only while no portal they would close
     * or continue holds a running result (closing one may wait for its workers).
     */
    boolean isImmediate(FrontendMessage message) {
        if (skipUntilSync && message.type() != FrontendMessage.SYNC) {
            return message.type() != FrontendMessage.TERMINATE;
        }
        return switch (message.type()) {
            case FrontendMessage.DESCRIBE, FrontendMessage.FLUSH -> true;
            case FrontendMessage.BIND -> idlePortal(portals.get(leadingName(message, 0)));
            case FrontendMessage.CLOSE -> message.body().length > 0 && message.body()[0] == 'S'
                    || idlePortal(portals.get(leadingName(message, 1)));
            case FrontendMessage.SYNC -> allPortalsIdle();
            case FrontendMessage.EXECUTE -> {
                Portal portal = portals.get(leadingName(message, 0));
                yield portal == null || portal.finished
                        || (portal.result == null && portal.statement.query().isPointLookup());
            }
            default -> false;
        };
    }

    private boolean allPortalsIdle() {
        for (Portal portal : portals.values()) {
            if (!idlePortal(portal)) {
                return false;
            }
        }
        return true;
    }

    /** No portal, or one not running (not started, or finished). */
    private static boolean idlePortal(Portal portal) {
        return portal == null || portal.result == null;
    }

    /** The name a message's body holds from {@code offset}; null when malformed (its handler says so). */
    private static String leadingName(FrontendMessage message, int offset) {
        byte[] body = message.body();
        for (int end = offset; end < body.length; end++) {
            if (body[end] == 0) {
                return end == offset ? UNNAMED : new String(body, offset, end - offset, java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /** Handles a message {@link #isImmediate} admitted, on the event loop, as {@link #run()} would. */
    void handleImmediate(FrontendMessage message) {
        if (skipUntilSync && message.type() != FrontendMessage.SYNC) {
            return;
        }
        handle(message);
    }

    private void handle(FrontendMessage message) {
        MessageReader reader = new MessageReader(message.body());
        switch (message.type()) {
            case FrontendMessage.QUERY -> simpleQuery(reader);
            case FrontendMessage.PARSE, FrontendMessage.BIND, FrontendMessage.DESCRIBE, FrontendMessage.EXECUTE,
                 FrontendMessage.CLOSE -> extended(message.type(), reader);
            case FrontendMessage.SYNC -> sync();
            case FrontendMessage.FLUSH -> writer.flush();
            case FrontendMessage.COPY_DATA, FrontendMessage.COPY_DONE, FrontendMessage.COPY_FAIL -> {
                // PostgreSQL ignores copy messages that arrive outside COPY (e.g. after a COPY failed).
            }
            case FrontendMessage.FUNCTION_CALL -> {
                writer.errorResponse(ErrorFields.error(SqlState.FEATURE_NOT_SUPPORTED.code(),
                        "the fastpath function call protocol is not supported"));
                session.failTransactionBlock();
                writer.readyForQuery(session.transactionStatus().indicator());
                writer.flush();
            }
            default -> throw new ProtocolException(String.format(Locale.ROOT, "invalid frontend message type %d", message.type()));
        }
    }

    // ---- simple query ----

    private void simpleQuery(MessageReader reader) {
        String text = reader.readCString();
        reader.expectEnd();
        // A Query message ends the unnamed statement and portal, as PostgreSQL's exec_simple_query does.
        closePortal(UNNAMED);
        closeStatement(UNNAMED);
        List<String> pieces = StatementSplitter.split(text);
        if (pieces.isEmpty()) {
            writer.emptyQueryResponse();
        }
        int searchFrom = 0;
        for (String sql : pieces) {
            int offset = text.indexOf(sql, searchFrom);
            searchFrom = offset + sql.length();
            if (!runSimple(sql, offset)) {
                break;
            }
        }
        writer.readyForQuery(session.transactionStatus().indicator());
        writer.flush();
    }

    /** Runs one statement of a Query message; false when it failed (the rest of the message is skipped). */
    private boolean runSimple(String sql, int offset) {
        try {
            ServerCopyChannel copy = new ServerCopyChannel(connection, writer);
            try (Result result = session.execute(sql, copy)) {
                if (copy.outputOpened()) {
                    writer.copyDone();
                }
                if (result.hasRows()) {
                    writer.rowDescription(result.columns(), null);
                    Portal portal = new Portal(UNNAMED, null, null, new boolean[result.columns().size()]);
                    portal.result = result;
                    sendRows(portal, 0);
                    portal.result = null;
                }
                complete(result);
            }
            return true;
        } catch (PgConnection.ConnectionClosedException | ProtocolException connectionEnds) {
            throw connectionEnds;
        } catch (RuntimeException failure) {
            ErrorFields error = errorOf(failure);
            if (error.position() > 0 && offset > 0) {
                error = error.withPosition(error.position() + offset);
            }
            writer.errorResponse(error);
            session.failTransactionBlock();
            return false;
        }
    }

    // ---- extended query ----

    /** Runs one extended-protocol message; an error is reported and then messages are skipped until Sync. */
    private void extended(byte type, MessageReader reader) {
        try {
            switch (type) {
                case FrontendMessage.PARSE -> parse(reader);
                case FrontendMessage.BIND -> bind(reader);
                case FrontendMessage.DESCRIBE -> describe(reader);
                case FrontendMessage.EXECUTE -> execute(reader);
                case FrontendMessage.CLOSE -> close(reader);
                default -> throw new IllegalArgumentException("not an extended-protocol message: " + type);
            }
        } catch (PgConnection.ConnectionClosedException | ProtocolException connectionEnds) {
            throw connectionEnds;
        } catch (RuntimeException failure) {
            writer.errorResponse(errorOf(failure));
            session.failTransactionBlock();
            skipUntilSync = true;
        }
    }

    private void parse(MessageReader reader) {
        String name = reader.readCString();
        String sql = reader.readCString();
        int count = reader.readCount();
        int[] declared = new int[count];
        for (int index = 0; index < count; index++) {
            declared[index] = reader.readInt32();
        }
        reader.expectEnd();
        // Named statements live in the session's namespace, which SQL PREPARE / EXECUTE / DEALLOCATE share (42P05 there).
        PreparedQuery query = name.isEmpty() ? session.prepare(sql) : session.prepareNamed(name, sql);
        ServerStatement previous = statements.put(name, new ServerStatement(name, sql, query, declared));
        if (previous != null) {
            previous.query().close();
        }
        writer.parseComplete();
    }

    private void bind(MessageReader reader) {
        String portalName = reader.readCString();
        String statementName = reader.readCString();
        int formatCount = reader.readCount();
        short[] parameterFormats = new short[formatCount];
        for (int index = 0; index < formatCount; index++) {
            parameterFormats[index] = reader.readInt16();
        }
        int parameterCount = reader.readCount();
        byte[][] values = new byte[parameterCount][];
        for (int index = 0; index < parameterCount; index++) {
            int length = reader.readInt32();
            values[index] = length == -1 ? null : reader.readBytes(length);
        }
        int resultFormatCount = reader.readCount();
        short[] resultFormats = new short[resultFormatCount];
        for (int index = 0; index < resultFormatCount; index++) {
            resultFormats[index] = reader.readInt16();
        }
        reader.expectEnd();
        ServerStatement statement = statement(statementName);
        if (formatCount > 1 && formatCount != parameterCount) {
            throw new ProtocolException(String.format(Locale.ROOT,
                    "bind message has %d parameter formats but %d parameters", formatCount, parameterCount));
        }
        if (parameterCount != statement.parameterCount()) {
            throw new ServerError(SqlState.PROTOCOL_VIOLATION.code(), String.format(Locale.ROOT,
                    "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
                    parameterCount, statementName, statement.parameterCount()));
        }
        Object[] parameters = new Object[parameterCount];
        List<DataType> parameterTypes = statement.query().parameterTypes();
        for (int index = 0; index < parameterCount; index++) {
            int format = formatCount == 0 ? 0 : formatCount == 1 ? parameterFormats[0] : parameterFormats[index];
            if (format != 0 && format != 1) {
                throw new ServerError(SqlState.PROTOCOL_VIOLATION.code(), "unsupported format code: " + format);
            }
            Object value = ParameterDecoder.decode(values[index], format == 1, statement.parameterOid(index), index + 1);
            DataType type = parameterTypes.get(index);
            if (value instanceof String text && (type.kind() == TypeKind.INTEGER || type.kind() == TypeKind.BIGINT
                    || type.kind() == TypeKind.SMALLINT)) {
                // Read now, as PostgreSQL's Bind does (a bad value fails the Bind): the execution then
                // gets a long, which a point lookup uses as its key without another conversion.
                value = ParameterBinder.convert(type, text);
            }
            parameters[index] = value;
        }
        List<ResultColumn> columns = statement.query().columns();
        if (resultFormatCount > 1 && resultFormatCount != columns.size()) {
            throw new ServerError(SqlState.PROTOCOL_VIOLATION.code(), String.format(Locale.ROOT,
                    "bind message has %d result formats but query has %d columns", resultFormatCount, columns.size()));
        }
        boolean[] binary = new boolean[columns.size()];
        for (int index = 0; index < binary.length; index++) {
            int format = resultFormatCount == 0 ? 0 : resultFormatCount == 1 ? resultFormats[0] : resultFormats[index];
            if (format != 0 && format != 1) {
                throw new ServerError(SqlState.PROTOCOL_VIOLATION.code(), "unsupported format code: " + format);
            }
            binary[index] = format == 1;
        }
        if (!portalName.isEmpty() && portals.containsKey(portalName)) {
            throw new ServerError("42P03", "cursor \"" + portalName + "\" already exists");
        }
        closePortal(portalName);
        portals.put(portalName, new Portal(portalName, statement, parameters, binary));
        writer.bindComplete();
    }

    private void describe(MessageReader reader) {
        byte kind = reader.readByte();
        String name = reader.readCString();
        reader.expectEnd();
        if (kind == 'S') {
            ServerStatement statement = statement(name);
            int[] oids = new int[statement.parameterCount()];
            for (int index = 0; index < oids.length; index++) {
                oids[index] = statement.parameterOid(index);
            }
            writer.parameterDescription(oids);
            describeColumns(statement, null);
        } else if (kind == 'P') {
            Portal portal = portals.get(name);
            if (portal == null) {
                throw new ServerError("34000", "portal \"" + name + "\" does not exist");
            }
            describeColumns(portal.statement, portal.binaryColumns);
        } else {
            throw new ProtocolException(String.format(Locale.ROOT, "invalid DESCRIBE message subtype %d", kind));
        }
    }

    /**
     * The statement {@code name} names now: the unnamed one, or the session's named statement, which
     * SQL PREPARE may have created and DEALLOCATE removed since the last Parse; 26000 when none.
     */
    private ServerStatement statement(String name) {
        ServerStatement statement = statements.get(name);
        if (!name.isEmpty()) {
            PreparedQuery current = session.preparedStatement(name);
            if (current == null) {
                statements.remove(name);
                statement = null;
            } else if (statement == null || statement.query() != current) {
                statement = new ServerStatement(name, current.sql(), current, new int[0]);
                statements.put(name, statement);
            }
        }
        if (statement == null) {
            throw new ServerError(SqlState.INVALID_SQL_STATEMENT_NAME.code(), "prepared statement \"" + name + "\" does not exist");
        }
        return statement;
    }

    private void describeColumns(ServerStatement statement, boolean[] binary) {
        List<ResultColumn> columns = statement.query().columns();
        if (columns.isEmpty()) {
            writer.noData();
        } else if (anyTrue(binary)) {
            writer.rowDescription(columns, binary);
        } else {
            writer.message(statement.textRowDescription());
        }
    }

    private static boolean anyTrue(boolean[] flags) {
        if (flags != null) {
            for (boolean flag : flags) {
                if (flag) {
                    return true;
                }
            }
        }
        return false;
    }

    private void execute(MessageReader reader) {
        String name = reader.readCString();
        int maxRows = reader.readInt32();
        reader.expectEnd();
        Portal portal = portals.get(name);
        if (portal == null) {
            throw new ServerError("34000", "portal \"" + name + "\" does not exist");
        }
        if (portal.finished) {
            // PostgreSQL: executing a completed portal again returns no rows and the same kind of tag.
            writer.commandComplete(portal.completedTag);
            return;
        }
        if (portal.result == null) {
            try {
                portal.result = portal.statement.query().execute(portal.parameters);
            } catch (RuntimeException failure) {
                closePortal(name);
                throw failure;
            }
        }
        Result result = portal.result;
        if (!result.hasRows()) {
            if (result.commandTag().isEmpty()) {
                writer.emptyQueryResponse();
                finish(portal, "");
            } else {
                complete(result);
                finish(portal, result.commandTag());
            }
            return;
        }
        long sentBefore = portal.rowsSent;
        try {
            if (sendRows(portal, maxRows <= 0 ? 0 : maxRows)) {
                // PostgreSQL's tag after a suspended portal counts the rows of this Execute only.
                String tag = result.commandTag().startsWith("SELECT ") ? "SELECT " + (portal.rowsSent - sentBefore) : result.commandTag();
                sendNotices(result);
                writer.commandComplete(tag);
                finish(portal, tag.startsWith("SELECT ") ? "SELECT 0" : tag);
            } else {
                writer.portalSuspended();
            }
        } catch (RuntimeException failure) {
            closePortal(name);
            throw failure;
        }
    }

    private void close(MessageReader reader) {
        byte kind = reader.readByte();
        String name = reader.readCString();
        reader.expectEnd();
        if (kind == 'S') {
            closeStatement(name);
        } else if (kind == 'P') {
            closePortal(name);
        } else {
            throw new ProtocolException(String.format(Locale.ROOT, "invalid CLOSE message subtype %d", kind));
        }
        writer.closeComplete();
    }

    private void sync() {
        skipUntilSync = false;
        // Each Sync ends the implicit transaction, and portals live only as long as their transaction.
        for (Portal portal : portals.values()) {
            portal.close();
        }
        portals.clear();
        writer.readyForQuery(session.transactionStatus().indicator());
        writer.flush();
    }

    // ---- rows ----

    /**
     * Sends DataRows of the portal's result, at most {@code limit} (0: all). Rows are pulled batch
     * by batch only while the client keeps reading. Returns true when the result is exhausted.
     */
    private boolean sendRows(Portal portal, long limit) {
        Result result = portal.result;
        boolean[] binary = portal.binaryColumns;
        encoder.startStatement();
        long sent = 0;
        while (limit == 0 || sent < limit) {
            Batch batch = portal.batch;
            if (batch == null || portal.nextRow >= batch.selectedCount()) {
                if (writer.pendingBytes() >= BackendWriter.FLUSH_THRESHOLD || !connection.isWritable()) {
                    connection.awaitWritable();
                }
                batch = result.nextBatch();
                portal.batch = batch;
                portal.nextRow = 0;
                if (batch == null) {
                    return true;
                }
                continue;
            }
            ColumnVector[] columns = batch.columns();
            int columnCount = batch.columnCount();
            int end = batch.selectedCount();
            if (limit != 0) {
                end = (int) Math.min(end, portal.nextRow + (limit - sent));
            }
            for (int index = portal.nextRow; index < end; index++) {
                int position = batch.position(index);
                int at = writer.begin((byte) 'D');
                ByteBuf out = writer.buffer();
                out.writeShort(columnCount);
                for (int column = 0; column < columnCount; column++) {
                    encoder.write(out, columns[column], position, binary[column]);
                }
                writer.end(at);
                if (writer.pendingBytes() >= BackendWriter.FLUSH_THRESHOLD) {
                    connection.awaitWritable();
                }
            }
            sent += end - portal.nextRow;
            portal.rowsSent += end - portal.nextRow;
            portal.nextRow = end;
        }
        // The limit is reached: exhausted only if nothing is left in this batch and no batch follows,
        // which we learn only by asking; PostgreSQL also answers PortalSuspended in that case.
        return false;
    }

    private void complete(Result result) {
        sendNotices(result);
        reportTimeZoneChange(result.commandTag());
        writer.commandComplete(result.commandTag());
    }

    /**
     * ParameterStatus TimeZone when the statement changed it, as PostgreSQL reports the setting (GUC_REPORT):
     * only SET, RESET, DISCARD and a block's end (SET LOCAL's value going) can, so other statements skip the look.
     */
    private void reportTimeZoneChange(String tag) {
        switch (tag) {
            case "SET", "RESET", "DISCARD ALL", "COMMIT", "ROLLBACK" -> {
                String timeZone = session.settings().show("TimeZone");
                if (!timeZone.equals(reportedTimeZone)) {
                    writer.parameterStatus("TimeZone", timeZone);
                    reportedTimeZone = timeZone;
                }
            }
            default -> {
            }
        }
    }

    /** NoticeResponse for each NOTICE, INFO or WARNING the statement raised. */
    private void sendNotices(Result result) {
        for (Notice notice : result.messages()) {
            writer.noticeResponse(ErrorFields.notice(notice));
        }
    }

    private void finish(Portal portal, String tag) {
        portal.close();
        portal.finished = true;
        portal.completedTag = tag;
    }

    private void closePortal(String name) {
        Portal portal = portals.remove(name);
        if (portal != null) {
            portal.close();
        }
    }

    private void closeStatement(String name) {
        ServerStatement statement = statements.remove(name);
        if (statement != null) {
            statement.query().close();
        }
        if (!name.isEmpty()) {
            session.closePreparedStatement(name);
        }
    }

    private void closeAll() {
        for (Portal portal : portals.values()) {
            portal.close();
        }
        portals.clear();
        for (ServerStatement statement : statements.values()) {
            statement.query().close();
        }
        statements.clear();
    }

    static ErrorFields errorOf(RuntimeException failure) {
        return switch (failure) {
            case ParallaxException parallax -> ErrorFields.of(parallax);
            case ServerError server -> ErrorFields.error(server.code(), server.getMessage());
            case ParameterDecoder.ParameterFormatException format -> ErrorFields.error(format.state(), format.getMessage());
            default -> ErrorFields.error(SqlState.INTERNAL_ERROR.code(), String.valueOf(failure.getMessage()));
        };
    }
}
