package dev.parallax.jdbc;

import dev.parallax.Database;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Parallax JDBC driver, found by {@link DriverManager} through ServiceLoader
 * ({@code META-INF/services/java.sql.Driver}). URLs:
 * <ul>
 *   <li>{@code jdbc:parallax:mem:} — a private in-memory database, closed with the connection;</li>
 *   <li>{@code jdbc:parallax:mem:NAME} — the in-memory database NAME ({@link Database#named}),
 *       shared by every connection in this JVM that names it; it stays open when connections close
 *       (close it through {@code connection.unwrap(Database.class).close()}).</li>
 * </ul>
 * Other {@code jdbc:parallax:} forms (files, servers) fail with 0A000: only in-memory databases
 * exist yet. Properties {@code user} and {@code password} are accepted and not checked.
 */
public final class ParallaxDriver implements Driver {
    static final String URL_PREFIX = "jdbc:parallax:";
    static final String MEMORY_PREFIX = URL_PREFIX + "mem:";
    static final int MAJOR_VERSION = 0;
    static final int MINOR_VERSION = 1;
    static final String VERSION = MAJOR_VERSION + "." + MINOR_VERSION + ".0";
    static final String NAME = "Parallax JDBC Driver";

    static {
        try {
            // For code that still loads drivers with Class.forName; ServiceLoader finds us otherwise.
            DriverManager.registerDriver(new ParallaxDriver());
        } catch (SQLException failure) {
            throw new ExceptionInInitializerError(failure);
        }
    }

    /**
     * A connection for a {@code jdbc:parallax:mem:} URL; null for URLs of other drivers, as the JDBC
     * contract asks so that DriverManager can try the next driver.
     */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        if (!url.startsWith(MEMORY_PREFIX)) {
            throw JdbcErrors.notSupported("Unsupported Parallax URL \"" + url + "\": only in-memory databases exist yet ("
                    + MEMORY_PREFIX + " for a private database, " + MEMORY_PREFIX + "NAME for one shared within the JVM)");
        }
        String name = url.substring(MEMORY_PREFIX.length());
        String user = info == null ? "" : info.getProperty("user", "");
        try {
            if (name.isEmpty()) {
                Database database = Database.inMemory();
                try {
                    return new ParallaxConnection(url, user, database, true);
                } catch (RuntimeException failure) {
                    database.close();
                    throw failure;
                }
            }
            return new ParallaxConnection(url, user, Database.named(name), false);
        } catch (RuntimeException failure) {
            throw JdbcErrors.translate(failure);
        }
    }

    @Override
    public boolean acceptsURL(String url) throws SQLException {
        if (url == null) {
            throw JdbcErrors.of("The URL must not be null", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        return url.startsWith(URL_PREFIX);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        Properties given = info == null ? new Properties() : info;
        DriverPropertyInfo user = new DriverPropertyInfo("user", given.getProperty("user"));
        user.description = "The user name reported by DatabaseMetaData.getUserName (not checked: in-memory databases have no users)";
        DriverPropertyInfo password = new DriverPropertyInfo("password", given.getProperty("password"));
        password.description = "Accepted and ignored: in-memory databases have no passwords";
        return new DriverPropertyInfo[] {user, password};
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** False: Parallax does not pass the JDBC compliance tests (no transactions, no escapes, no CallableStatement). */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw JdbcErrors.notSupported("The Parallax driver does not log through java.util.logging");
    }
}
