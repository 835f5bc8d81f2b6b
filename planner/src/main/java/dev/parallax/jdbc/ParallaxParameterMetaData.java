package dev.parallax.jdbc;

import dev.parallax.engine.type.DataType;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.util.List;

/** The parameters of a prepared statement, typed as the planner inferred them ({@code PreparedQuery.parameterTypes()}). */
final class ParallaxParameterMetaData implements ParameterMetaData {
    private final List<DataType> types;

    ParallaxParameterMetaData(List<DataType> types) {
        this.types = List.copyOf(types);
    }

    private DataType type(int parameter) throws SQLException {
        if (parameter < 1 || parameter > types.size()) {
            throw JdbcErrors.of("The parameter index is out of range: " + parameter + ", number of parameters: " + types.size() + ".",
                    JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        return types.get(parameter - 1);
    }

    @Override
    public int getParameterCount() {
        return types.size();
    }

    @Override
    public int isNullable(int parameter) throws SQLException {
        type(parameter);
        return parameterNullableUnknown;
    }

    @Override
    public boolean isSigned(int parameter) throws SQLException {
        return JdbcTypes.isSigned(type(parameter));
    }

    @Override
    public int getPrecision(int parameter) throws SQLException {
        return JdbcTypes.precision(type(parameter));
    }

    @Override
    public int getScale(int parameter) throws SQLException {
        return JdbcTypes.scale(type(parameter));
    }

    @Override
    public int getParameterType(int parameter) throws SQLException {
        return JdbcTypes.sqlType(type(parameter));
    }

    @Override
    public String getParameterTypeName(int parameter) throws SQLException {
        return JdbcTypes.typeName(type(parameter));
    }

    @Override
    public String getParameterClassName(int parameter) throws SQLException {
        return JdbcTypes.className(type(parameter));
    }

    @Override
    public int getParameterMode(int parameter) throws SQLException {
        type(parameter);
        return parameterModeIn;
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
