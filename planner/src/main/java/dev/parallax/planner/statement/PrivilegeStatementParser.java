package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses GRANT, REVOKE and the OWNER TO action of ALTER TABLE / VIEW / SEQUENCE / SCHEMA into a
 * {@link PrivilegeStatement}, with PostgreSQL 15's grammar and its errors for what it refuses while
 * parsing (an unknown privilege word, a privilege the object kind does not have). Objects other
 * than relations and schemas (functions, types, databases, ...) and role memberships are 0A000:
 * Parallax has none of them.
 */
final class PrivilegeStatementParser {
    private static final Set<String> TABLE_PRIVILEGES = Set.of("select", "insert", "update", "delete", "truncate", "references", "trigger");
    private static final Set<String> SEQUENCE_PRIVILEGES = Set.of("usage", "select", "update");
    private static final Set<String> SCHEMA_PRIVILEGES = Set.of("usage", "create");
    /** Every privilege word PostgreSQL 15 knows, for its "unrecognized privilege type" check. */
    private static final Set<String> KNOWN_PRIVILEGES = Set.of("select", "insert", "update", "delete", "truncate", "references",
            "trigger", "usage", "create", "connect", "temporary", "temp", "execute");

    private PrivilegeStatementParser() {
    }

    /** {@code GRANT privileges ON objects TO roles ...} or {@code REVOKE [GRANT OPTION FOR] privileges ON objects FROM roles ...}. */
    static Statement parseGrantOrRevoke(TokenCursor cursor) {
        boolean grant = cursor.peek().isKeyword("grant");
        Token verb = cursor.next();
        String commandTag = grant ? "GRANT" : "REVOKE";
        if (!grant && cursor.peek().isKeyword("grant") && cursor.peek(1).isKeyword("option")) {
            cursor.next();
            cursor.next();
            cursor.expect("for");
        }
        List<String> privileges = new ArrayList<>();
        List<Token> privilegeTokens = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        if (cursor.accept("all")) {
            cursor.accept("privileges");
            privileges.add("all");
            privilegeTokens.add(null);
            columns.addAll(cursor.optionalNameList());
        } else {
            do {
                Token word = cursor.next();
                if (word.kind() != TokenKind.IDENTIFIER) {
                    throw cursor.syntaxError(word);
                }
                privileges.add(word.value());
                privilegeTokens.add(word);
                columns.addAll(cursor.optionalNameList());
            } while (cursor.acceptSymbol(","));
        }
        if (!cursor.peek().isKeyword("on")) {
            // GRANT role TO role: membership in roles, which Parallax does not have.
            throw StatementParser.notSupported(commandTag + " of role membership is not supported", verb);
        }
        cursor.expect("on");
        Token objectType = cursor.peek();
        PrivilegeStatement.ObjectKind kind;
        List<String> names = new ArrayList<>();
        if (cursor.accept("all")) {
            Token plural = cursor.next();
            if (!plural.isKeyword("tables") && !plural.isKeyword("sequences")) {
                throw StatementParser.notSupported(commandTag + " ON ALL " + plural.value().toUpperCase(Locale.ROOT)
                        + " IN SCHEMA is not supported", plural);
            }
            cursor.expect("in");
            cursor.expect("schema");
            kind = PrivilegeStatement.ObjectKind.SCHEMA;
            checkPrivileges(privileges, privilegeTokens, plural.isKeyword("tables") ? "table" : "sequence",
                    plural.isKeyword("tables") ? TABLE_PRIVILEGES : SEQUENCE_PRIVILEGES);
            do {
                names.add(cursor.name());
            } while (cursor.acceptSymbol(","));
        } else if (cursor.accept("schema")) {
            kind = PrivilegeStatement.ObjectKind.SCHEMA;
            checkPrivileges(privileges, privilegeTokens, "schema", SCHEMA_PRIVILEGES);
            do {
                names.add(cursor.name());
            } while (cursor.acceptSymbol(","));
        } else {
            if (cursor.accept("sequence")) {
                kind = PrivilegeStatement.ObjectKind.SEQUENCE;
                checkPrivileges(privileges, privilegeTokens, "sequence", SEQUENCE_PRIVILEGES);
            } else {
                if (isOtherObjectType(cursor)) {
                    throw StatementParser.notSupported(commandTag + " ON " + objectType.value().toUpperCase(Locale.ROOT)
                            + " is not supported", objectType);
                }
                cursor.accept("table");
                kind = PrivilegeStatement.ObjectKind.RELATION;
                checkPrivileges(privileges, privilegeTokens, "table", TABLE_PRIVILEGES);
            }
            do {
                names.add(cursor.relationName().name());
            } while (cursor.acceptSymbol(","));
        }
        if (!columns.isEmpty() && kind != PrivilegeStatement.ObjectKind.RELATION) {
            throw cursor.syntaxError(cursor.peek());
        }
        cursor.expect(grant ? "to" : "from");
        List<PrivilegeStatement.Role> roles = new ArrayList<>();
        do {
            roles.add(role(cursor, true));
        } while (cursor.acceptSymbol(","));
        if (grant && cursor.peek().isKeyword("with")) {
            cursor.next();
            cursor.expect("grant");
            cursor.expect("option");
        }
        if (cursor.accept("granted")) {
            cursor.expect("by");
            roles.add(role(cursor, false));
        }
        if (!grant && !cursor.accept("cascade")) {
            cursor.accept("restrict");
        }
        cursor.expectEnd();
        return new PrivilegeStatement(commandTag, kind, names, false, privileges, columns, roles);
    }

    /** {@code OWNER TO role}, the action of ALTER {what} name, after the name. */
    static Statement parseOwnerTo(TokenCursor cursor, String commandTag, PrivilegeStatement.ObjectKind kind, String name, boolean ifExists) {
        cursor.expect("owner");
        cursor.expect("to");
        PrivilegeStatement.Role owner = role(cursor, false);
        cursor.expectEnd();
        return new PrivilegeStatement(commandTag, kind, List.of(name), ifExists, List.of(), List.of(), List.of(owner));
    }

    /** Whether ON is followed by an object type Parallax does not have (functions, types, databases, ...). */
    private static boolean isOtherObjectType(TokenCursor cursor) {
        Token type = cursor.peek();
        if (type.kind() != TokenKind.IDENTIFIER) {
            return false;
        }
        boolean typeWord = Set.of("function", "procedure", "routine", "database", "domain", "foreign", "language", "large",
                "tablespace", "type", "parameter").contains(type.value());
        // "ON function f" names a function; "ON function" alone, or followed by "," or TO, is a table named function.
        Token after = cursor.peek(1);
        return typeWord && after.kind() != TokenKind.END && !after.isSymbol(",") && !after.isKeyword("to") && !after.isKeyword("from");
    }

    /**
     * PostgreSQL's checks of the privilege words: 42601 for a word that is no privilege, 0LP01 for
     * one the object kind does not have ({@code invalid privilege type USAGE for table}).
     */
    private static void checkPrivileges(List<String> privileges, List<Token> tokens, String objectKind, Set<String> valid) {
        for (int index = 0; index < privileges.size(); index++) {
            String privilege = privileges.get(index);
            if (privilege.equals("all")) {
                continue;
            }
            if (!KNOWN_PRIVILEGES.contains(privilege)) {
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "unrecognized privilege type \"" + privilege + "\"", null, null, 0, null);
            }
            String canonical = privilege.equals("temp") ? "temporary" : privilege;
            if (!valid.contains(canonical)) {
                throw ParallaxException.of(SqlState.INVALID_GRANT_OPERATION, "invalid privilege type %s for %s",
                        canonical.toUpperCase(Locale.ROOT), objectKind);
            }
        }
    }

    /** A role specification: a name, or CURRENT_USER, CURRENT_ROLE, SESSION_USER, and PUBLIC where a grantee may be. */
    private static PrivilegeStatement.Role role(TokenCursor cursor, boolean grantee) {
        Token token = cursor.peek();
        if (token.kind() == TokenKind.IDENTIFIER) {
            switch (token.value()) {
                case "current_user", "current_role" -> {
                    cursor.next();
                    return new PrivilegeStatement.Role(PrivilegeStatement.Role.Kind.CURRENT_USER, null);
                }
                case "session_user" -> {
                    cursor.next();
                    return new PrivilegeStatement.Role(PrivilegeStatement.Role.Kind.SESSION_USER, null);
                }
                case "public" -> {
                    cursor.next();
                    return grantee ? new PrivilegeStatement.Role(PrivilegeStatement.Role.Kind.PUBLIC, null)
                            : new PrivilegeStatement.Role(PrivilegeStatement.Role.Kind.NAMED, "public");
                }
                default -> {
                }
            }
        }
        if (grantee && token.isKeyword("group")) {
            cursor.next();
        }
        return new PrivilegeStatement.Role(PrivilegeStatement.Role.Kind.NAMED, cursor.name());
    }
}
