package dev.parallax.jdbc;

import dev.parallax.PreparedQuery;
import dev.parallax.Result;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.function.Supplier;

/**
 * A JDBC PreparedStatement over a {@link PreparedQuery}: the statement is parsed and planned once,
 * when prepared (so {@link #getMetaData()} and {@link #getParameterMetaData()} answer before any
 * execution, and errors such as an unknown table surface from {@code prepareStatement}), then each
 * execution binds the {@code ?} values. Values are kept as Java objects ({@code java.sql} date and
 * time types turned into {@code java.time} ones) and converted to the parameter types by the
 * engine's {@code ParameterBinder}, with PostgreSQL's range checks and text input rules.
 */
final class ParallaxPreparedStatement extends ParallaxStatement implements PreparedStatement {
    /** Marks a parameter no setter has given a value yet (null is a value: SQL NULL). */
    private static final Object UNSET = new Object();

    private final PreparedQuery query;
    private final Object[] parameters;
    private final List<Object[]> batchParameters = new ArrayList<>();

    ParallaxPreparedStatement(ParallaxConnection connection, PreparedQuery query) {
        super(connection);
        this.query = query;
        this.parameters = new Object[query.parameterTypes().size()];
        Arrays.fill(parameters, UNSET);
    }

    // ---- execution ----

    @Override
    public boolean execute() throws SQLException {
        checkOpen();
        discardResults();
        Object[] values = boundValues();
        return beginResults(start(() -> query.execute(values)));
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        execute();
        return firstResultSet();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return saturated(executeLargeUpdate());
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        execute();
        return firstUpdateCount();
    }

    /** A copy of the parameter values; pgJDBC's 22023 when one was never set. */
    private Object[] boundValues() throws SQLException {
        for (int index = 0; index < parameters.length; index++) {
            if (parameters[index] == UNSET) {
                throw JdbcErrors.of("No value specified for parameter " + (index + 1) + ".", JdbcErrors.INVALID_PARAMETER_VALUE);
            }
        }
        return parameters.clone();
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        batchParameters.add(boundValues());
    }

    @Override
    int batchSize() {
        return batchParameters.size();
    }

    @Override
    Supplier<Result> batchEntry(int index) {
        Object[] values = batchParameters.get(index);
        return () -> query.execute(values);
    }

    @Override
    String describeBatchEntry(int index) {
        return query.sql();
    }

    @Override
    void clearBatchEntries() {
        batchParameters.clear();
    }

    @Override
    void checkSqlTextAllowed() throws SQLException {
        throw JdbcErrors.of("Can't use query methods that take a query string on a PreparedStatement.", JdbcErrors.WRONG_OBJECT_TYPE);
    }

    @Override
    void closeResources() {
        query.close();
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return query.columns().isEmpty() ? null : new ParallaxResultSetMetaData(query.columns());
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new ParallaxParameterMetaData(query.parameterTypes());
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(parameters, UNSET);
    }

    // ---- setters ----

    private void set(int parameterIndex, Object value) throws SQLException {
        checkOpen();
        if (parameterIndex < 1 || parameterIndex > parameters.length) {
            throw JdbcErrors.of("The column index is out of range: " + parameterIndex + ", number of columns: " + parameters.length + ".",
                    JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        parameters[parameterIndex - 1] = value;
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        set(parameterIndex, null);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        set(parameterIndex, null);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setByte(int parameterIndex, byte value) throws SQLException {
        set(parameterIndex, (short) value);
    }

    @Override
    public void setShort(int parameterIndex, short value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setInt(int parameterIndex, int value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setLong(int parameterIndex, long value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setFloat(int parameterIndex, float value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setDouble(int parameterIndex, double value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setString(int parameterIndex, String value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        set(parameterIndex, value);
    }

    /** The bytes are UTF-8 text for text parameters, a bit string's encoding for bit ones (Parallax has no bytea). */
    @Override
    public void setBytes(int parameterIndex, byte[] value) throws SQLException {
        set(parameterIndex, value == null ? null : value.clone());
    }

    @Override
    public void setDate(int parameterIndex, Date value) throws SQLException {
        set(parameterIndex, value == null ? null : value.toLocalDate());
    }

    /** The date as seen in {@code calendar}'s time zone (the JVM's when null). */
    @Override
    public void setDate(int parameterIndex, Date value, Calendar calendar) throws SQLException {
        set(parameterIndex, value == null ? null
                : Instant.ofEpochMilli(value.getTime()).atZone(zone(calendar)).toLocalDate());
    }

    @Override
    public void setTime(int parameterIndex, Time value) throws SQLException {
        set(parameterIndex, value == null ? null : value.toLocalTime());
    }

    @Override
    public void setTime(int parameterIndex, Time value, Calendar calendar) throws SQLException {
        set(parameterIndex, value == null ? null
                : Instant.ofEpochMilli(value.getTime()).atZone(zone(calendar)).toLocalTime());
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp value) throws SQLException {
        set(parameterIndex, value == null ? null : value.toLocalDateTime());
    }

    /** The instant as a wall-clock time in {@code calendar}'s time zone (the JVM's when null), as pgJDBC does. */
    @Override
    public void setTimestamp(int parameterIndex, Timestamp value, Calendar calendar) throws SQLException {
        set(parameterIndex, value == null ? null : LocalDateTime.ofInstant(value.toInstant(), zone(calendar)));
    }

    private static ZoneId zone(Calendar calendar) {
        return calendar == null ? ZoneId.systemDefault() : calendar.getTimeZone().toZoneId();
    }

    @Override
    public void setObject(int parameterIndex, Object value) throws SQLException {
        set(parameterIndex, javaTime(value));
    }

    /**
     * The value converted toward {@code targetSqlType} where the Java value does not already say
     * it (a number sent as text, a boolean as a number); the engine then converts to the
     * parameter's type as usual.
     */
    @Override
    public void setObject(int parameterIndex, Object value, int targetSqlType) throws SQLException {
        set(parameterIndex, towardSqlType(javaTime(value), targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object value, int targetSqlType, int scaleOrLength) throws SQLException {
        Object converted = towardSqlType(javaTime(value), targetSqlType);
        if ((targetSqlType == Types.NUMERIC || targetSqlType == Types.DECIMAL) && converted instanceof BigDecimal decimal) {
            converted = decimal.setScale(scaleOrLength, java.math.RoundingMode.HALF_UP);
        }
        set(parameterIndex, converted);
    }

    @Override
    public void setObject(int parameterIndex, Object value, SQLType targetSqlType) throws SQLException {
        setObject(parameterIndex, value, vendorType(targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object value, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        setObject(parameterIndex, value, vendorType(targetSqlType), scaleOrLength);
    }

    private static int vendorType(SQLType type) throws SQLException {
        if (type == null || type.getVendorTypeNumber() == null) {
            throw JdbcErrors.notSupported("Unknown SQL type " + type);
        }
        return type.getVendorTypeNumber();
    }

    /** java.sql (and java.util) dates and times as the java.time values the engine binds. */
    private static Object javaTime(Object value) {
        return switch (value) {
            case Timestamp timestamp -> timestamp.toLocalDateTime();
            case Date date -> date.toLocalDate();
            case Time time -> time.toLocalTime();
            case java.util.Date date -> new Timestamp(date.getTime()).toLocalDateTime();
            case Character character -> character.toString();
            case null, default -> value;
        };
    }

    private static Object towardSqlType(Object value, int targetSqlType) throws SQLException {
        if (value == null) {
            return null;
        }
        return switch (targetSqlType) {
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR, Types.CLOB ->
                    value instanceof BigDecimal decimal ? decimal.toPlainString() : value instanceof byte[] ? value : value.toString();
            case Types.BIT, Types.BOOLEAN -> value instanceof Number number ? new BigDecimal(number.toString()).signum() != 0 : value;
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.NUMERIC, Types.DECIMAL, Types.REAL, Types.FLOAT,
                 Types.DOUBLE -> value instanceof Boolean bool ? (bool ? 1 : 0) : value;
            case Types.DATE -> value instanceof LocalDateTime timestamp ? timestamp.toLocalDate() : value;
            case Types.TIMESTAMP -> value instanceof LocalDate date ? date.atStartOfDay() : value;
            case Types.ARRAY -> value;
            case Types.BLOB, Types.REF, Types.STRUCT, Types.DATALINK, Types.ROWID, Types.SQLXML, Types.JAVA_OBJECT,
                 Types.DISTINCT, Types.REF_CURSOR ->
                    throw JdbcErrors.notSupported("Unsupported Types value: " + targetSqlType);
            default -> value;
        };
    }

    // ---- streams: read whole, as values are bound whole ----

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        set(parameterIndex, readText(reader, length));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, readText(reader, length));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        set(parameterIndex, readText(reader, Long.MAX_VALUE));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, readText(reader, length));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        set(parameterIndex, readText(reader, Long.MAX_VALUE));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, readText(reader, length));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        set(parameterIndex, readText(reader, Long.MAX_VALUE));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, readText(reader, length));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        set(parameterIndex, readText(reader, Long.MAX_VALUE));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream stream, int length) throws SQLException {
        setAsciiStream(parameterIndex, stream, (long) length);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream stream, long length) throws SQLException {
        byte[] bytes = readBytes(stream, length);
        set(parameterIndex, bytes == null ? null : new String(bytes, StandardCharsets.US_ASCII));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream stream) throws SQLException {
        setAsciiStream(parameterIndex, stream, Long.MAX_VALUE);
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int parameterIndex, InputStream stream, int length) throws SQLException {
        throw JdbcErrors.notSupported("setUnicodeStream is deprecated and not supported: use setCharacterStream");
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream stream, int length) throws SQLException {
        set(parameterIndex, readBytes(stream, length));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream stream, long length) throws SQLException {
        set(parameterIndex, readBytes(stream, length));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream stream) throws SQLException {
        set(parameterIndex, readBytes(stream, Long.MAX_VALUE));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream stream, long length) throws SQLException {
        set(parameterIndex, readBytes(stream, length));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream stream) throws SQLException {
        set(parameterIndex, readBytes(stream, Long.MAX_VALUE));
    }

    private static String readText(Reader reader, long length) throws SQLException {
        if (reader == null) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[8192];
        try {
            while (text.length() < length) {
                int read = reader.read(buffer, 0, (int) Math.min(buffer.length, length - text.length()));
                if (read < 0) {
                    break;
                }
                text.append(buffer, 0, read);
            }
        } catch (IOException failure) {
            throw JdbcErrors.of("Provided Reader failed.", "58030", failure);
        }
        return text.toString();
    }

    private static byte[] readBytes(InputStream stream, long length) throws SQLException {
        if (stream == null) {
            return null;
        }
        try {
            return length >= Integer.MAX_VALUE ? stream.readAllBytes() : stream.readNBytes((int) length);
        } catch (IOException failure) {
            throw JdbcErrors.of("Provided InputStream failed.", "58030", failure);
        }
    }

    // ---- value kinds Parallax does not have ----

    @Override
    public void setRef(int parameterIndex, Ref value) throws SQLException {
        throw JdbcErrors.notSupported("Parallax has no REF values");
    }

    @Override
    public void setBlob(int parameterIndex, Blob value) throws SQLException {
        throw JdbcErrors.notSupported("Parallax has no BLOB values: use setBytes");
    }

    @Override
    public void setClob(int parameterIndex, Clob value) throws SQLException {
        throw JdbcErrors.notSupported("Parallax has no CLOB values: use setString");
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        throw JdbcErrors.notSupported("Parallax has no NCLOB values: use setString");
    }

    /** Any {@link Array} whose {@code getArray()} gives its elements; converted to the parameter's array type. */
    @Override
    public void setArray(int parameterIndex, Array value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setURL(int parameterIndex, URL value) throws SQLException {
        throw JdbcErrors.notSupported("Parallax has no URL values: use setString");
    }

    @Override
    public void setRowId(int parameterIndex, RowId value) throws SQLException {
        throw JdbcErrors.notSupported("Parallax has no ROWID values");
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML value) throws SQLException {
        throw JdbcErrors.notSupported("Parallax has no XML values");
    }
}
