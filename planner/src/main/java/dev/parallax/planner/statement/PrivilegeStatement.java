package dev.parallax.planner.statement;

import java.util.List;
import java.util.Objects;

/**
 * {@code GRANT} / {@code REVOKE} of privileges on relations or schemas and {@code ALTER TABLE | VIEW |
 * SEQUENCE | SCHEMA ... OWNER TO}, which pg_dump writes for every object. Parallax has one role and
 * no privilege checks (every session may do what PostgreSQL's superuser may), so they change
 * nothing; they are still checked as PostgreSQL checks them, so that a dump naming a missing
 * relation or role fails as it would there.
 *
 * @param commandTag  {@code GRANT}, {@code REVOKE} or the ALTER command's tag
 * @param kind        what the names name
 * @param objectNames the relations or schemas, folded, without their schema (a temporary table hides a permanent one here, as unqualified)
 * @param ifExists    ALTER ... IF EXISTS: a missing relation is skipped with a notice
 * @param privileges  the privileges named (lower case, {@code all} for ALL PRIVILEGES), none for OWNER TO
 * @param columns     the columns named by column privileges ({@code SELECT (a, b)}), checked on each relation
 * @param roles       the grantees or the new owner
 */
public record PrivilegeStatement(String commandTag, ObjectKind kind, List<String> objectNames, boolean ifExists,
        List<String> privileges, List<String> columns, List<Role> roles) implements Statement {

    /** What a GRANT, REVOKE or OWNER TO names. */
    public enum ObjectKind {
        /** ALTER TABLE and GRANT ON [TABLE]: a table, a view or a sequence. */
        RELATION,
        /** ALTER VIEW: only a view (42809 otherwise). */
        VIEW,
        /** ALTER SEQUENCE and GRANT ON SEQUENCE: only a sequence (42809 otherwise). */
        SEQUENCE,
        /** ALTER SCHEMA, GRANT ON SCHEMA and GRANT ON ALL TABLES / SEQUENCES IN SCHEMA. */
        SCHEMA
    }

    /**
     * A role as written: a name (folded), or one of the words {@code PUBLIC} (GRANT and REVOKE only),
     * {@code CURRENT_USER} / {@code CURRENT_ROLE} and {@code SESSION_USER}.
     */
    public record Role(Kind kind, String name) {
        public enum Kind { NAMED, PUBLIC, CURRENT_USER, SESSION_USER }

        public Role {
            Objects.requireNonNull(kind, "kind");
        }
    }

    public PrivilegeStatement {
        objectNames = List.copyOf(objectNames);
        privileges = List.copyOf(privileges);
        columns = List.copyOf(columns);
        roles = List.copyOf(roles);
    }
}
