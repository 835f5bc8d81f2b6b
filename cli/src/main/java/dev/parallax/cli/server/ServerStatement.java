package dev.parallax.cli.server;

import dev.parallax.PreparedQuery;

/**
 * A statement created by Parse: the session's prepared query and, per parameter, the type OID the
 * client declared (0 when it left the type to the server), which is the type binary parameter
 * values arrive in. Used by the connection's protocol state's owner only.
 */
final class ServerStatement {
    private final String name;
    private final String sql;
    private final PreparedQuery query;
    private final int[] declaredOids;
    /** The RowDescription message of the result columns in text format, encoded at its first use. */
    private byte[] textRowDescription;

    ServerStatement(String name, String sql, PreparedQuery query, int[] declaredOids) {
        this.name = name;
        this.sql = sql;
        this.query = query;
        this.declaredOids = declaredOids;
    }

    String name() {
        return name;
    }

    String sql() {
        return sql;
    }

    PreparedQuery query() {
        return query;
    }

    /** The OID ParameterDescription reports for parameter {@code index}: declared, else inferred. */
    int parameterOid(int index) {
        if (index < declaredOids.length && declaredOids[index] != 0) {
            return declaredOids[index];
        }
        return PgTypes.oid(query.parameterTypes().get(index));
    }

    int parameterCount() {
        return query.parameterTypes().size();
    }

    /**
     * RowDescription for the result columns all in text format, the whole message: encoded once,
     * as libpq describes the portal at every execution of a prepared statement (the columns of a
     * prepared query never change).
     */
    byte[] textRowDescription() {
        if (textRowDescription == null) {
            textRowDescription = BackendWriter.encodeRowDescription(query.columns(), null);
        }
        return textRowDescription;
    }
}
