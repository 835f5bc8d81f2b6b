package dev.parallax.jdbc;

import java.sql.SQLException;

/** {@link java.sql.Wrapper#unwrap} for the driver's objects: the first candidate of the asked type. */
final class JdbcWrappers {
    private JdbcWrappers() {
    }

    /** The first of {@code candidates} (the JDBC object itself first, then what it wraps) that is an {@code iface}. */
    static <T> T unwrap(Class<T> iface, Object... candidates) throws SQLException {
        for (Object candidate : candidates) {
            if (iface.isInstance(candidate)) {
                return iface.cast(candidate);
            }
        }
        throw JdbcErrors.of("Cannot unwrap to " + iface.getName(), JdbcErrors.INVALID_PARAMETER_VALUE);
    }
}
