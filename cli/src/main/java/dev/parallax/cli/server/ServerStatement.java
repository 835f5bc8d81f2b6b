package dev.parallax.cli.server;

import dev.parallax.PreparedQuery;

/**
 * A statement created by Parse: the session's prepared query and, per parameter, the type OID the
 * client declared (0 when it left the type to the server), which is the type binary parameter
 * values arrive in.
 */
record ServerStatement(String name, String sql, PreparedQuery query, int[] declaredOids) {
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
}
