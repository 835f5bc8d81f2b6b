package dev.parallax.jdbc;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.ValueObjects;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A forward-only, read-only ResultSet streaming the batches of a {@link Result}: it holds one batch
 * at a time (honouring its selection) and never the whole result. The getters read the current
 * row's value straight from the batch's column vectors through {@link ColumnValues}. Reaching the
 * end, or {@code maxRows} rows, closes the underlying result at once so the query's resources are
 * freed even when the application forgets to close the ResultSet. Used by one thread.
 * <p>
 * Results built by the driver itself (DatabaseMetaData's, over {@link RowListResult}) go through the
 * same class, so every getter exists once.
 */
final class ParallaxResultSet extends ReadOnlyResultSet {
    private final ParallaxStatement statement;
    private final Result result;
    private final List<ResultColumn> columns;
    private final long maxRows;
    private Batch batch;
    /** Index of the current row among the batch's live rows; -1 before the batch's first. */
    private int index = -1;
    /** The current row's position in the batch's vectors. */
    private int position;
    private long row;
    private boolean exhausted;
    private boolean closed;
    private boolean wasNull;
    private int fetchSize;
    private Map<String, Integer> exactNames;
    private Map<String, Integer> foldedNames;

    /**
     * @param statement the statement that produced the result, or null for DatabaseMetaData results
     * @param maxRows   rows to deliver at most; 0 for all
     */
    /**
     * PostgreSQL's text of the value at the current position; a timestamp with time zone in the session's
     * TimeZone, looked up then (results without one cost no setting lookup).
     */
    private String text(ColumnVector vector) {
        if (!dev.parallax.engine.type.SessionTimeZone.appliesTo(vector.type())) {
            return ColumnValues.text(vector, position);
        }
        dev.parallax.engine.type.SessionTimeZone zone = statement == null ? dev.parallax.engine.type.SessionTimeZone.UTC
                : dev.parallax.engine.type.SessionTimeZone.ofSetting(statement.connection.session().settings().show("TimeZone"));
        return dev.parallax.engine.type.ValueText.format(vector, position, zone);
    }

    ParallaxResultSet(ParallaxStatement statement, Result result, long maxRows) {
        this.statement = statement;
        this.result = result;
        this.columns = result.columns();
        this.maxRows = maxRows;
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (exhausted) {
            return false;
        }
        if (maxRows > 0 && row >= maxRows) {
            finish();
            return false;
        }
        if ((batch == null || index + 1 >= batch.selectedCount()) && !fetchBatch()) {
            return false;
        }
        index++;
        position = batch.position(index);
        row++;
        return true;
    }

    /**
     * Reads the next batch holding live rows and stands before its first; false (and the result
     * closed) at the end. The previous batch becomes invalid, as {@link Result#nextBatch()} says.
     */
    private boolean fetchBatch() throws SQLException {
        while (true) {
            Batch next;
            try {
                next = result.nextBatch();
            } catch (RuntimeException failure) {
                finish();
                throw JdbcErrors.translate(failure);
            }
            if (next == null) {
                finish();
                return false;
            }
            if (next.selectedCount() > 0) {
                batch = next;
                index = -1;
                return true;
            }
        }
    }

    /** Past the last row: free the query now rather than when the application closes us. */
    private void finish() {
        exhausted = true;
        batch = null;
        result.close();
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        batch = null;
        try {
            result.close();
        } finally {
            if (statement != null) {
                statement.resultSetClosed(this);
            }
        }
    }

    @Override
    void checkOpen() throws SQLException {
        if (closed) {
            throw JdbcErrors.of("This ResultSet is closed.", JdbcErrors.OBJECT_NOT_IN_STATE);
        }
    }

    /** The current row's vector of column {@code columnIndex} (1-based); sets {@link #wasNull}. */
    private ColumnVector column(int columnIndex) throws SQLException {
        checkOpen();
        if (batch == null || row == 0 || exhausted) {
            throw JdbcErrors.of("ResultSet not positioned properly, perhaps you need to call next.", JdbcErrors.INVALID_CURSOR_STATE);
        }
        checkColumnIndex(columnIndex);
        ColumnVector vector = batch.column(columnIndex - 1);
        wasNull = vector.isNull(position);
        return vector;
    }

    private void checkColumnIndex(int columnIndex) throws SQLException {
        if (columnIndex < 1 || columnIndex > columns.size()) {
            throw JdbcErrors.of("The column index is out of range: " + columnIndex + ", number of columns: " + columns.size() + ".",
                    JdbcErrors.INVALID_PARAMETER_VALUE);
        }
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    // ---- getters by index ----

    @Override
    public String getString(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? null : text(vector);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return !wasNull && ColumnValues.bool(vector, position);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? 0 : (byte) ColumnValues.integer(vector, position, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? 0 : (short) ColumnValues.integer(vector, position, Short.MIN_VALUE, Short.MAX_VALUE, "short");
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? 0 : (int) ColumnValues.integer(vector, position, Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? 0 : ColumnValues.integer(vector, position, Long.MIN_VALUE, Long.MAX_VALUE, "long");
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? 0 : (float) ColumnValues.floating(vector, position, "float");
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? 0 : ColumnValues.floating(vector, position, "double");
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? null : ColumnValues.decimal(vector, position);
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal value = getBigDecimal(columnIndex);
        return value == null ? null : value.setScale(scale, RoundingMode.HALF_UP);
    }

    /** The UTF-8 bytes of the value's text form (Parallax has no bytea; pgJDBC does the same for non-bytea columns). */
    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        String text = getString(columnIndex);
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? null : Date.valueOf(ColumnValues.date(vector, position));
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        LocalTime time = localTime(columnIndex);
        return time == null ? null : new Time(LocalDate.EPOCH.atTime(time).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli());
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        return wasNull ? null : Timestamp.valueOf(ColumnValues.timestamp(vector, position));
    }

    /**
     * A timestamp without time zone read as a wall-clock time in {@code calendar}'s zone, as pgJDBC
     * does; a null calendar means the JVM's zone.
     */
    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar calendar) throws SQLException {
        ColumnVector vector = column(columnIndex);
        if (wasNull) {
            return null;
        }
        if (vector.type().kind() == dev.parallax.engine.type.TypeKind.TIMESTAMPTZ) {
            // An instant: the calendar does not move it.
            return Timestamp.valueOf(ColumnValues.timestamp(vector, position));
        }
        LocalDateTime value = ColumnValues.timestamp(vector, position);
        return Timestamp.from(value.atZone(zone(calendar)).toInstant());
    }

    @Override
    public Date getDate(int columnIndex, Calendar calendar) throws SQLException {
        ColumnVector vector = column(columnIndex);
        if (wasNull) {
            return null;
        }
        LocalDate value = ColumnValues.date(vector, position);
        return new Date(value.atStartOfDay(zone(calendar)).toInstant().toEpochMilli());
    }

    @Override
    public Time getTime(int columnIndex, Calendar calendar) throws SQLException {
        LocalTime time = localTime(columnIndex);
        return time == null ? null : new Time(LocalDate.EPOCH.atTime(time).atZone(zone(calendar)).toInstant().toEpochMilli());
    }

    private static ZoneId zone(Calendar calendar) {
        return calendar == null ? ZoneId.systemDefault() : calendar.getTimeZone().toZoneId();
    }

    /** The time of day of a timestamp, or a time spelled in text. */
    private LocalTime localTime(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        if (wasNull) {
            return null;
        }
        TypeKind kind = vector.type().kind();
        if (kind.isText()) {
            String text = text(vector).strip();
            try {
                return LocalTime.parse(text);
            } catch (java.time.format.DateTimeParseException notTime) {
                throw JdbcErrors.of("Bad value for type time : " + text, JdbcErrors.INVALID_DATETIME_FORMAT);
            }
        }
        if (kind != TypeKind.TIMESTAMP) {
            throw JdbcErrors.of("Bad value for type time : " + text(vector), JdbcErrors.INVALID_DATETIME_FORMAT);
        }
        return ColumnValues.timestamp(vector, position).toLocalTime();
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        String text = getString(columnIndex);
        return text == null ? null : new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        throw JdbcErrors.notSupported("getUnicodeStream is deprecated and not supported: use getCharacterStream");
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        byte[] bytes = getBytes(columnIndex);
        return bytes == null ? null : new ByteArrayInputStream(bytes);
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String text = getString(columnIndex);
        return text == null ? null : new StringReader(text);
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    /**
     * The value as {@link ValueObjects#toJava} gives it (LocalDate, LocalDateTime, BigDecimal, ...);
     * an array is a {@link java.sql.Array}, as JDBC (and pgJDBC) hand arrays out.
     */
    @Override
    public Object getObject(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        if (wasNull) {
            return null;
        }
        return vector.type().kind() == TypeKind.ARRAY ? array(vector) : ValueObjects.toJava(vector, position);
    }

    @Override
    public java.sql.Array getArray(int columnIndex) throws SQLException {
        ColumnVector vector = column(columnIndex);
        if (wasNull) {
            return null;
        }
        if (vector.type().kind() != TypeKind.ARRAY) {
            throw JdbcErrors.of("conversion to java.sql.Array from " + JdbcTypes.typeName(vector.type()) + " not supported",
                    JdbcErrors.INVALID_PARAMETER_TYPE);
        }
        return array(vector);
    }

    @Override
    public java.sql.Array getArray(String columnLabel) throws SQLException {
        return getArray(findColumn(columnLabel));
    }

    /** The array at the current row, copied out of the batch (which the next row may replace). */
    private ParallaxArray array(ColumnVector vector) {
        dev.parallax.engine.vector.BytesVector bytes = (dev.parallax.engine.vector.BytesVector) vector;
        int offset = bytes.offset(position);
        return new ParallaxArray(vector.type(), java.util.Arrays.copyOfRange(bytes.data(), offset, offset + bytes.length(position)));
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw JdbcErrors.notSupported("Parallax has no user-defined types: getObject with a type map is not supported");
        }
        return getObject(columnIndex);
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw JdbcErrors.of("Invalid parameter: the class must not be null", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        Object value = convertedObject(columnIndex, type);
        return wasNull ? null : type.cast(value);
    }

    private Object convertedObject(int columnIndex, Class<?> type) throws SQLException {
        if (type == String.class) {
            return getString(columnIndex);
        } else if (type == Integer.class) {
            return getInt(columnIndex);
        } else if (type == Long.class) {
            return getLong(columnIndex);
        } else if (type == Short.class) {
            return getShort(columnIndex);
        } else if (type == Byte.class) {
            return getByte(columnIndex);
        } else if (type == Double.class) {
            return getDouble(columnIndex);
        } else if (type == Float.class) {
            return getFloat(columnIndex);
        } else if (type == Boolean.class) {
            return getBoolean(columnIndex);
        } else if (type == BigDecimal.class) {
            return getBigDecimal(columnIndex);
        } else if (type == BigInteger.class) {
            BigDecimal value = getBigDecimal(columnIndex);
            return value == null ? null : value.toBigInteger();
        } else if (type == LocalDate.class) {
            ColumnVector vector = column(columnIndex);
            return wasNull ? null : ColumnValues.date(vector, position);
        } else if (type == LocalDateTime.class) {
            ColumnVector vector = column(columnIndex);
            return wasNull ? null : ColumnValues.timestamp(vector, position);
        } else if (type == java.time.OffsetDateTime.class || type == java.time.Instant.class) {
            ColumnVector vector = column(columnIndex);
            if (wasNull) {
                return null;
            }
            if (vector.type().kind() != dev.parallax.engine.type.TypeKind.TIMESTAMPTZ) {
                throw JdbcErrors.of("conversion to " + type + " from " + vector.type().sqlName() + " not supported",
                        JdbcErrors.INVALID_PARAMETER_VALUE);
            }
            java.time.OffsetDateTime value = dev.parallax.engine.type.ValueObjects.timestampWithTimeZone(((dev.parallax.engine.vector.LongVector) vector).get(position));
            return type == java.time.Instant.class ? value.toInstant() : value;
        } else if (type == LocalTime.class) {
            return localTime(columnIndex);
        } else if (type == Date.class) {
            return getDate(columnIndex);
        } else if (type == Timestamp.class) {
            return getTimestamp(columnIndex);
        } else if (type == Time.class) {
            return getTime(columnIndex);
        } else if (type == byte[].class) {
            return getBytes(columnIndex);
        } else if (type == Object.class) {
            return getObject(columnIndex);
        } else if (type == java.sql.Array.class) {
            return getArray(columnIndex);
        } else if (type == java.util.UUID.class) {
            // pgJDBC: a uuid column, or text spelling one.
            ColumnVector vector = column(columnIndex);
            if (wasNull) {
                return null;
            }
            TypeKind kind = vector.type().kind();
            if (kind == TypeKind.UUID) {
                return ValueObjects.toJava(vector, position);
            }
            if (kind.isText()) {
                try {
                    return java.util.UUID.fromString(((dev.parallax.engine.vector.BytesVector) vector).getString(position).strip());
                } catch (IllegalArgumentException notUuid) {
                    throw JdbcErrors.of("Invalid UUID data.", JdbcErrors.INVALID_PARAMETER_TYPE);
                }
            }
        } else if (type == ValueObjects.Interval.class) {
            ColumnVector vector = column(columnIndex);
            TypeKind kind = vector.type().kind();
            if (kind == TypeKind.INTERVAL_DAY_TIME || kind == TypeKind.INTERVAL_YEAR_MONTH) {
                return wasNull ? null : ValueObjects.toJava(vector, position);
            }
        }
        checkOpen();
        checkColumnIndex(columnIndex);
        throw JdbcErrors.of("conversion to " + type + " from " + JdbcTypes.typeName(columns.get(columnIndex - 1).type()) + " not supported",
                JdbcErrors.INVALID_PARAMETER_TYPE);
    }

    // ---- getters by label ----

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        if (exactNames == null) {
            exactNames = new HashMap<>();
            foldedNames = new HashMap<>();
            for (int columnIndex = 0; columnIndex < columns.size(); columnIndex++) {
                String name = columns.get(columnIndex).name();
                exactNames.putIfAbsent(name, columnIndex + 1);
                foldedNames.putIfAbsent(name.toLowerCase(Locale.ROOT), columnIndex + 1);
            }
        }
        Integer columnIndex = columnLabel == null ? null : exactNames.get(columnLabel);
        if (columnIndex == null && columnLabel != null) {
            columnIndex = foldedNames.get(columnLabel.toLowerCase(Locale.ROOT));
        }
        if (columnIndex == null) {
            throw JdbcErrors.of("The column name " + columnLabel + " was not found in this ResultSet.", "42703");
        }
        return columnIndex;
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel, Calendar calendar) throws SQLException {
        return getDate(findColumn(columnLabel), calendar);
    }

    @Override
    public Time getTime(String columnLabel, Calendar calendar) throws SQLException {
        return getTime(findColumn(columnLabel), calendar);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar calendar) throws SQLException {
        return getTimestamp(findColumn(columnLabel), calendar);
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return getUnicodeStream(findColumn(columnLabel));
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getNString(findColumn(columnLabel));
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getNCharacterStream(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(columnLabel), map);
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    // ---- cursor state and properties ----

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new ParallaxResultSetMetaData(columns);
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** The current row's number (1-based), 0 before the first row and after the last. */
    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return exhausted ? 0 : (int) Math.min(row, Integer.MAX_VALUE);
    }

    /** True before the first row of a non-empty result; reads ahead one batch to know it is not empty. */
    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        if (row > 0 || exhausted) {
            return false;
        }
        return batch != null || fetchBatch();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return exhausted && row > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return row == 1 && !exhausted;
    }

    /** Optional for forward-only results (JDBC 4.3): knowing it would mean reading past the current batch, which that batch must outlive. */
    @Override
    public boolean isLast() throws SQLException {
        checkOpen();
        throw JdbcErrors.notSupported("isLast is not supported on a streaming TYPE_FORWARD_ONLY ResultSet");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw JdbcErrors.of("Invalid fetch direction constant: " + direction + ".", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /** Accepted as a hint: rows already stream a batch at a time. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw JdbcErrors.of("Fetch size must be a value greater to or equal to 0.", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    /** Parallax has no named cursors (positioned UPDATE ... WHERE CURRENT OF); pgJDBC also answers null. */
    @Override
    public String getCursorName() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return JdbcWrappers.unwrap(iface, this, result);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this) || iface.isInstance(result);
    }
}
