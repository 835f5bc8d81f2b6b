package dev.parallax.jdbc;

import dev.parallax.ResultColumn;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.ValueObjects;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A SQL array value as JDBC hands it out ({@code ResultSet.getArray}, {@code getObject} of an array
 * column) and takes it in ({@code Connection.createArrayOf}, then {@code PreparedStatement.setArray}):
 * the engine's encoded array and its type, immutable. {@link #getArray()} gives the elements as
 * {@code getObject} gives values of the element type ({@code Integer[]} for integer[],
 * {@code String[]} for text[]...), {@link #getResultSet()} one row per element with its
 * {@code INDEX} (the array's subscript, from its lower bound) and {@code VALUE}, as pgJDBC does.
 */
final class ParallaxArray implements Array {
    private final DataType type;
    private byte[] encoded;

    /**
     * @param type    the array type ({@code DataType.array(element)})
     * @param encoded the array in the engine's encoding ({@link ArrayValue}), not copied
     */
    ParallaxArray(DataType type, byte[] encoded) {
        this.type = Objects.requireNonNull(type, "type");
        this.encoded = Objects.requireNonNull(encoded, "encoded");
    }

    /** The array type, for binding it as a parameter. */
    DataType type() {
        return type;
    }

    /** pgJDBC's base type name: the element's pg_type name ({@code int4}, {@code text}). */
    @Override
    public String getBaseTypeName() throws SQLException {
        checkNotFreed();
        return JdbcTypes.typeName(type.element());
    }

    @Override
    public int getBaseType() throws SQLException {
        checkNotFreed();
        return JdbcTypes.sqlType(type.element());
    }

    @Override
    public Object getArray() throws SQLException {
        return slice(1, Integer.MAX_VALUE);
    }

    @Override
    public Object getArray(Map<String, Class<?>> map) throws SQLException {
        checkTypeMap(map);
        return getArray();
    }

    /** Elements {@code index} (1-based, from the first element whatever the lower bound) onward, at most {@code count}. */
    @Override
    public Object getArray(long index, int count) throws SQLException {
        return slice(index, count);
    }

    @Override
    public Object getArray(long index, int count, Map<String, Class<?>> map) throws SQLException {
        checkTypeMap(map);
        return slice(index, count);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        return rows(1, Integer.MAX_VALUE);
    }

    @Override
    public ResultSet getResultSet(Map<String, Class<?>> map) throws SQLException {
        checkTypeMap(map);
        return rows(1, Integer.MAX_VALUE);
    }

    @Override
    public ResultSet getResultSet(long index, int count) throws SQLException {
        return rows(index, count);
    }

    @Override
    public ResultSet getResultSet(long index, int count, Map<String, Class<?>> map) throws SQLException {
        checkTypeMap(map);
        return rows(index, count);
    }

    @Override
    public void free() {
        encoded = null;
    }

    /** PostgreSQL's text form of the array ({@code {1,NULL,"a b"}}), as pgJDBC's arrays print. */
    @Override
    public String toString() {
        return encoded == null ? "(freed array)" : ArrayValue.toText(type, encoded, 0);
    }

    private Object[] slice(long index, int count) throws SQLException {
        checkNotFreed();
        Object[] elements = ValueObjects.arrayElements(type, encoded, 0);
        int from = checkedStart(index, count, elements.length);
        int to = (int) Math.min(elements.length, (long) from + count);
        Object[] typed = (Object[]) java.lang.reflect.Array.newInstance(elementClass(), to - from);
        System.arraycopy(elements, from, typed, 0, typed.length);
        return typed;
    }

    private ResultSet rows(long index, int count) throws SQLException {
        checkNotFreed();
        Object[] elements = ValueObjects.arrayElements(type, encoded, 0);
        int from = checkedStart(index, count, elements.length);
        int to = (int) Math.min(elements.length, (long) from + count);
        int lowerBound = ArrayValue.lowerBound(encoded, 0);
        List<Object[]> rows = new ArrayList<>(to - from);
        for (int element = from; element < to; element++) {
            rows.add(new Object[] {lowerBound + element, elements[element]});
        }
        List<ResultColumn> columns = List.of(new ResultColumn("INDEX", DataType.INTEGER), new ResultColumn("VALUE", type.element()));
        return new ParallaxResultSet(null, new RowListResult(columns, rows), 0);
    }

    /** The 0-based start of a 1-based {@code index}; pgJDBC's errors for a bad index or count. */
    private static int checkedStart(long index, int count, int length) throws SQLException {
        if (index < 1 || index - 1 > length) {
            throw JdbcErrors.of("The array index is out of range: " + index + ", number of elements: " + length + ".",
                    JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        if (count < 0) {
            throw JdbcErrors.of("The array count is negative: " + count, JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        return (int) (index - 1);
    }

    /** The class getObject gives values of the element type (JdbcTypes.className), for a typed Java array. */
    private Class<?> elementClass() {
        DataType element = type.element();
        if (element.kind() == TypeKind.ARRAY) {
            return Object[].class;
        }
        try {
            return Class.forName(JdbcTypes.className(element));
        } catch (ClassNotFoundException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private void checkNotFreed() throws SQLException {
        if (encoded == null) {
            throw JdbcErrors.of("free() was called on this array", JdbcErrors.OBJECT_NOT_IN_STATE);
        }
    }

    private static void checkTypeMap(Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw JdbcErrors.notSupported("Parallax has no user-defined types: a type map is not supported");
        }
    }
}
