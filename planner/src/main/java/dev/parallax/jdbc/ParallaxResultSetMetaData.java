package dev.parallax.jdbc;

import dev.parallax.ResultColumn;
import dev.parallax.engine.type.DataType;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * The columns of a result as JDBC describes them: names, {@link java.sql.Types} codes and
 * PostgreSQL type names as pgJDBC reports them (see {@link JdbcTypes}). Parallax does not track
 * which table a result column came from, so table and schema names are empty and nullability is
 * unknown, as pgJDBC answers for computed columns.
 */
final class ParallaxResultSetMetaData implements ResultSetMetaData {
    private final List<ResultColumn> columns;

    ParallaxResultSetMetaData(List<ResultColumn> columns) {
        this.columns = List.copyOf(columns);
    }

    private DataType type(int column) throws SQLException {
        return columnAt(column).type();
    }

    private ResultColumn columnAt(int column) throws SQLException {
        if (column < 1 || column > columns.size()) {
            throw JdbcErrors.of("The column index is out of range: " + column + ", number of columns: " + columns.size() + ".",
                    JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        return columns.get(column - 1);
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        columnAt(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return JdbcTypes.isCaseSensitive(type(column));
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        columnAt(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        columnAt(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        columnAt(column);
        return columnNullableUnknown;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return JdbcTypes.isSigned(type(column));
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        return JdbcTypes.displaySize(type(column));
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return columnAt(column).name();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return columnAt(column).name();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        columnAt(column);
        return "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return JdbcTypes.precision(type(column));
    }

    @Override
    public int getScale(int column) throws SQLException {
        return JdbcTypes.scale(type(column));
    }

    @Override
    public String getTableName(int column) throws SQLException {
        columnAt(column);
        return "";
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        columnAt(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return JdbcTypes.sqlType(type(column));
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return JdbcTypes.typeName(type(column));
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        columnAt(column);
        return true;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        columnAt(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        columnAt(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return JdbcTypes.className(type(column));
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return JdbcWrappers.unwrap(iface, this);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
