package dev.parallax.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * The part of {@link ResultSet} a forward-only, read-only result refuses: updates, positioning
 * other than {@code next()}, and the LOB/array/ref types Parallax has no values of. Kept apart so
 * that {@link ParallaxResultSet} reads as what it does. Updates throw
 * SQLFeatureNotSupportedException as the JDBC specification asks of a driver without updatable
 * results; moves throw pgJDBC's "Operation requires a scrollable ResultSet" (24000).
 */
abstract class ReadOnlyResultSet implements ResultSet {

    private static SQLFeatureNotSupportedException readOnly() {
        return JdbcErrors.notSupported("ResultSets with concurrency CONCUR_READ_ONLY cannot be updated.");
    }

    private static SQLException forwardOnly() {
        return JdbcErrors.of("Operation requires a scrollable ResultSet, but this ResultSet is FORWARD_ONLY.",
                JdbcErrors.INVALID_CURSOR_STATE);
    }

    private static SQLFeatureNotSupportedException noSuchValues(String typeName) {
        return JdbcErrors.notSupported("Parallax has no " + typeName + " values: get" + typeName + " is not supported");
    }

    /** Checks that the result set is open (moves on a closed one report that first). */
    abstract void checkOpen() throws SQLException;

    @Override
    public final boolean previous() throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final boolean first() throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final boolean last() throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final boolean absolute(int row) throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final boolean relative(int rows) throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final void beforeFirst() throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final void afterLast() throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final void moveToInsertRow() throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final void moveToCurrentRow() throws SQLException {
        checkOpen();
        throw forwardOnly();
    }

    @Override
    public final void insertRow() throws SQLException {
        checkOpen();
        throw readOnly();
    }

    @Override
    public final void updateRow() throws SQLException {
        checkOpen();
        throw readOnly();
    }

    @Override
    public final void deleteRow() throws SQLException {
        checkOpen();
        throw readOnly();
    }

    @Override
    public final void refreshRow() throws SQLException {
        checkOpen();
        throw readOnly();
    }

    @Override
    public final void cancelRowUpdates() throws SQLException {
        checkOpen();
        throw readOnly();
    }

    @Override
    public final boolean rowUpdated() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public final boolean rowInserted() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public final boolean rowDeleted() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public final Ref getRef(int columnIndex) throws SQLException {
        throw noSuchValues("Ref");
    }

    @Override
    public final Ref getRef(String columnLabel) throws SQLException {
        throw noSuchValues("Ref");
    }

    @Override
    public final Blob getBlob(int columnIndex) throws SQLException {
        throw noSuchValues("Blob");
    }

    @Override
    public final Blob getBlob(String columnLabel) throws SQLException {
        throw noSuchValues("Blob");
    }

    @Override
    public final Clob getClob(int columnIndex) throws SQLException {
        throw noSuchValues("Clob");
    }

    @Override
    public final Clob getClob(String columnLabel) throws SQLException {
        throw noSuchValues("Clob");
    }

    @Override
    public final NClob getNClob(int columnIndex) throws SQLException {
        throw noSuchValues("NClob");
    }

    @Override
    public final NClob getNClob(String columnLabel) throws SQLException {
        throw noSuchValues("NClob");
    }

    @Override
    public final SQLXML getSQLXML(int columnIndex) throws SQLException {
        throw noSuchValues("SQLXML");
    }

    @Override
    public final SQLXML getSQLXML(String columnLabel) throws SQLException {
        throw noSuchValues("SQLXML");
    }

    @Override
    public final RowId getRowId(int columnIndex) throws SQLException {
        throw noSuchValues("RowId");
    }

    @Override
    public final RowId getRowId(String columnLabel) throws SQLException {
        throw noSuchValues("RowId");
    }

    @Override
    public final java.net.URL getURL(int columnIndex) throws SQLException {
        throw noSuchValues("URL");
    }

    @Override
    public final java.net.URL getURL(String columnLabel) throws SQLException {
        throw noSuchValues("URL");
    }

    @Override
    public final void updateNull(int columnIndex) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBoolean(int columnIndex, boolean value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateByte(int columnIndex, byte value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateShort(int columnIndex, short value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateInt(int columnIndex, int value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateLong(int columnIndex, long value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateFloat(int columnIndex, float value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDouble(int columnIndex, double value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBigDecimal(int columnIndex, BigDecimal value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateString(int columnIndex, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBytes(int columnIndex, byte[] value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDate(int columnIndex, Date value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTime(int columnIndex, Time value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTimestamp(int columnIndex, Timestamp value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream value, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream value, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader value, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int columnIndex, Object value, int scaleOrLength) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int columnIndex, Object value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNull(String columnLabel) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBoolean(String columnLabel, boolean value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateByte(String columnLabel, byte value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateShort(String columnLabel, short value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateInt(String columnLabel, int value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateLong(String columnLabel, long value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateFloat(String columnLabel, float value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDouble(String columnLabel, double value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBigDecimal(String columnLabel, BigDecimal value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateString(String columnLabel, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBytes(String columnLabel, byte[] value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDate(String columnLabel, Date value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTime(String columnLabel, Time value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTimestamp(String columnLabel, Timestamp value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream value, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream value, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader value, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String columnLabel, Object value, int scaleOrLength) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String columnLabel, Object value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRef(int columnIndex, Ref value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRef(String columnLabel, Ref value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int columnIndex, Blob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String columnLabel, Blob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int columnIndex, Clob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String columnLabel, Clob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateArray(int columnIndex, Array value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateArray(String columnLabel, Array value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRowId(int columnIndex, RowId value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRowId(String columnLabel, RowId value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNString(int columnIndex, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNString(String columnLabel, String value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int columnIndex, NClob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String columnLabel, NClob value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateSQLXML(int columnIndex, SQLXML value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateSQLXML(String columnLabel, SQLXML value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(int columnIndex, Reader value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(String columnLabel, Reader value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int columnIndex, InputStream value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String columnLabel, InputStream value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int columnIndex, Reader value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String columnLabel, Reader value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int columnIndex, Reader value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String columnLabel, Reader value, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(int columnIndex, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(String columnLabel, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int columnIndex, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String columnLabel, InputStream value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int columnIndex, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String columnLabel, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int columnIndex, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String columnLabel, Reader value) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int columnIndex, Object value, SQLType targetType, int scaleOrLength) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String columnLabel, Object value, SQLType targetType, int scaleOrLength) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int columnIndex, Object value, SQLType targetType) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String columnLabel, Object value, SQLType targetType) throws SQLException {
        throw readOnly();
    }
}
