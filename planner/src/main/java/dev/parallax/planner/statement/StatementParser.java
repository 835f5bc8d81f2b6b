package dev.parallax.planner.statement;

import dev.parallax.engine.catalog.ColumnDefault;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.ReferentialAction;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.sequence.SequenceOptions;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Classifies one statement by its leading keyword and parses the utility statements Parallax
 * handles itself (CREATE/DROP TABLE, CREATE TABLE ... AS and SELECT ... INTO, SET/SHOW/RESET, ALTER TABLE SET/RESET options, CALL, COPY,
 * EXPLAIN's options, transaction control). Everything else is a {@link QueryStatement} for the
 * query planner. Errors carry PostgreSQL's SQLSTATE, wording and 1-based position.
 */
public final class StatementParser {
    private StatementParser() {
    }

    /** Parses one statement (a trailing semicolon is allowed); blank or comment-only text is an {@link EmptyStatement}. */
    public static Statement parse(String sql) {
        TokenCursor cursor = new TokenCursor(sql);
        Token first = cursor.peek();
        if (cursor.atEnd()) {
            return new EmptyStatement();
        }
        if (first.kind() != TokenKind.IDENTIFIER) {
            return new QueryStatement(sql);
        }
        return switch (first.value()) {
            case "create" -> parseCreate(cursor);
            case "drop" -> parseDrop(cursor);
            case "set" -> parseSet(cursor);
            case "show" -> parseShow(cursor);
            case "reset" -> parseReset(cursor);
            case "alter" -> parseAlter(cursor);
            case "call" -> parseCall(cursor);
            case "copy" -> parseCopy(cursor);
            case "explain" -> parseExplain(cursor);
            case "vacuum" -> parseVacuum(cursor);
            case "truncate" -> parseTruncate(cursor);
            case "analyze", "analyse" -> parseAnalyze(cursor);
            case "begin", "start" -> parseTransaction(cursor, TransactionStatement.Kind.BEGIN);
            case "commit", "end" -> parseTransaction(cursor, TransactionStatement.Kind.COMMIT);
            case "rollback", "abort" -> parseTransaction(cursor, TransactionStatement.Kind.ROLLBACK);
            case "select", "with" -> {
                CreateTableAsStatement into = CreateTableAsParser.parseSelectInto(cursor);
                if (into != null) {
                    yield into;
                }
                SetConfigStatement setConfig = first.isKeyword("select") ? parseSetConfig(sql) : null;
                yield setConfig != null ? setConfig : new QueryStatement(sql);
            }
            case "grant", "revoke" -> PrivilegeStatementParser.parseGrantOrRevoke(cursor);
            case "comment" -> CommentStatementParser.parse(cursor);
            case "prepare" -> PreparedStatementParser.parsePrepare(cursor);
            case "execute" -> PreparedStatementParser.parseExecute(cursor);
            case "deallocate" -> PreparedStatementParser.parseDeallocate(cursor);
            default -> new QueryStatement(sql);
        };
    }

    static ParallaxException notSupported(String message, Token at) {
        return new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, message, null, null, at.position(), null);
    }

    /** ALTER TABLE ... ADD CHECK / FOREIGN KEY ... NOT VALID: 0A000, as every constraint added is validated against the rows. */
    private static void refuseNotValid(TokenCursor cursor) {
        Token not = cursor.peek();
        if (cursor.accept("not")) {
            cursor.expect("valid");
            throw notSupported("NOT VALID constraints are not supported", not);
        }
    }

    // ---- CREATE TABLE ----

    private static Statement parseCreate(TokenCursor cursor) {
        cursor.expect("create");
        if (cursor.peek().isKeyword("or") || cursor.peek().isKeyword("view")) {
            return parseCreateView(cursor);
        }
        Token modifier = cursor.peek();
        boolean global = cursor.accept("global");
        boolean temporary = global || cursor.accept("local");
        if (temporary) {
            if (!cursor.accept("temp") && !cursor.accept("temporary")) {
                throw cursor.syntaxError(cursor.peek());
            }
        } else {
            temporary = cursor.accept("temp") || cursor.accept("temporary");
        }
        if (!temporary) {
            // Every Parallax table lives in memory without a log, so UNLOGGED changes nothing.
            cursor.accept("unlogged");
        }
        Token what = cursor.peek();
        if (temporary && (what.isKeyword("view") || what.isKeyword("sequence") || what.isKeyword("recursive"))) {
            throw notSupported("temporary " + (what.isKeyword("sequence") ? "sequences" : "views") + " are not supported", modifier);
        }
        if (temporary && !what.isKeyword("table")) {
            throw cursor.syntaxError(what);
        }
        if (what.isKeyword("index")) {
            return parseCreateIndex(cursor, false);
        }
        if (what.isKeyword("unique")) {
            cursor.expect("unique");
            if (!cursor.peek().isKeyword("index")) {
                throw cursor.syntaxError(cursor.peek());
            }
            return parseCreateIndex(cursor, true);
        }
        if (what.isKeyword("sequence")) {
            return parseCreateSequence(cursor);
        }
        if (cursor.accept("system")) {
            return parseAlterSystem(cursor);
        }
        if (!cursor.accept("table")) {
            if (what.kind() == TokenKind.END) {
                throw cursor.syntaxError(what);
            }
            throw notSupported("CREATE " + what.value().toUpperCase(Locale.ROOT) + " is not supported", what);
        }
        boolean ifNotExists = false;
        if (cursor.accept("if")) {
            cursor.expect("not");
            cursor.expect("exists");
            ifNotExists = true;
        }
        RelationName created = cursor.createdTableName(temporary);
        temporary |= created.schema() == RelationName.Schema.TEMPORARY;
        String tableName = created.name();
        Token open = cursor.peek();
        if (open.isKeyword("partition")) {
            return parsePartitionOf(cursor, tableName, ifNotExists, temporary, global);
        }
        if (CreateTableAsParser.follows(cursor)) {
            return CreateTableAsParser.parse(cursor, tableName, ifNotExists, temporary, global);
        }
        cursor.expectSymbol("(");
        List<ColumnDefinition> columns = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<TableConstraint> constraints = new ArrayList<>();
        List<Token> constraintStarts = new ArrayList<>();
        Map<String, String> defaultExpressions = new LinkedHashMap<>();
        Map<String, IdentityClause> identities = new LinkedHashMap<>();
        List<CheckClause> checks = new ArrayList<>();
        List<ForeignKeyClause> foreignKeys = new ArrayList<>();
        if (!cursor.acceptSymbol(")")) {
            do {
                Token start = cursor.peek();
                if (start.isKeyword("check") || start.isKeyword("constraint") && cursor.peek(2).isKeyword("check")) {
                    checks.add(parseCheck(cursor));
                    continue;
                }
                if (start.isKeyword("foreign") || start.isKeyword("constraint") && cursor.peek(2).isKeyword("foreign")) {
                    foreignKeys.add(parseForeignKey(cursor));
                    continue;
                }
                if (start.kind() == TokenKind.IDENTIFIER && Set.of("primary", "unique", "constraint").contains(start.value())) {
                    constraints.add(parseTableConstraint(cursor));
                    constraintStarts.add(start);
                    continue;
                }
                ColumnDefinition column = parseColumn(cursor, tableName, constraints, constraintStarts, defaultExpressions, identities,
                        checks, foreignKeys);
                if (!names.add(column.name())) {
                    throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" specified more than once", column.name());
                }
                columns.add(column);
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        }
        HashPartitioning partitioning = null;
        if (cursor.peek().isKeyword("partition")) {
            partitioning = parsePartitionBy(cursor, names);
        }
        Map<String, String> storageParameters = parseWithStorageParameters(cursor);
        TemporaryTable temporaryTable = parseOnCommit(cursor, temporary, global);
        cursor.expectEnd();
        List<TableConstraint> validated = validateConstraints(tableName, names, constraints, constraintStarts);
        if (partitioning != null) {
            checkKeysIncludePartitionKey(tableName, validated, partitioning);
        }
        return new CreateTableStatement(tableName, ifNotExists, keyColumnsNotNull(columns, constraints), validated, partitioning,
                defaultExpressions, identities, storageParameters, checks, temporaryTable, foreignKeys);
    }

    /**
     * {@code [ON COMMIT PRESERVE ROWS | DELETE ROWS | DROP]} after CREATE TABLE's WITH clause, and
     * what it and TEMP make of the table: null for a permanent one, whose ON COMMIT is PostgreSQL's
     * 42P16.
     */
    static TemporaryTable parseOnCommit(TokenCursor cursor, boolean temporary, boolean global) {
        TemporaryTable.OnCommit onCommit = null;
        if (cursor.peek().isKeyword("on") && cursor.peek(1).isKeyword("commit")) {
            cursor.expect("on");
            cursor.expect("commit");
            Token action = cursor.next();
            if (action.isKeyword("drop")) {
                onCommit = TemporaryTable.OnCommit.DROP;
            } else if (action.isKeyword("delete") || action.isKeyword("preserve")) {
                cursor.expect("rows");
                onCommit = action.isKeyword("delete") ? TemporaryTable.OnCommit.DELETE_ROWS : TemporaryTable.OnCommit.PRESERVE_ROWS;
            } else {
                throw cursor.syntaxError(action);
            }
        }
        if (!temporary) {
            if (onCommit != null) {
                throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "ON COMMIT can only be used on temporary tables");
            }
            return null;
        }
        return new TemporaryTable(onCommit == null ? TemporaryTable.OnCommit.PRESERVE_ROWS : onCommit, global);
    }

    /** {@code PARTITION BY HASH (cols) [PARTITIONS n]}; RANGE and LIST are not supported yet. */
    private static HashPartitioning parsePartitionBy(TokenCursor cursor, Set<String> columnNames) {
        cursor.expect("partition");
        cursor.expect("by");
        Token strategy = cursor.peek();
        if (strategy.isKeyword("range") || strategy.isKeyword("list")) {
            throw notSupported("PARTITION BY " + strategy.value().toUpperCase(Locale.ROOT) + " is not supported yet", strategy);
        }
        cursor.expect("hash");
        cursor.expectSymbol("(");
        List<String> keyColumns = new ArrayList<>();
        do {
            Token column = cursor.peek();
            String name = cursor.name();
            if (!columnNames.contains(name)) {
                throw new ParallaxException(SqlState.UNDEFINED_COLUMN,
                        "column \"" + name + "\" named in partition key does not exist", null, null, column.position(), null);
            }
            keyColumns.add(name);
        } while (cursor.acceptSymbol(","));
        cursor.expectSymbol(")");
        int partitions = 0;
        if (cursor.accept("partitions")) {
            Token count = cursor.next();
            partitions = count.kind() == TokenKind.NUMBER ? parseBoundNumber(count) : -1;
            if (partitions < 1) {
                if (count.kind() != TokenKind.NUMBER) {
                    throw cursor.syntaxError(count);
                }
                throw new ParallaxException(SqlState.INVALID_TABLE_DEFINITION,
                        "number of hash partitions must be an integer value greater than zero", null, null, count.position(), null);
            }
        }
        return new HashPartitioning(keyColumns, partitions);
    }

    /** PostgreSQL's rule that a unique constraint of a partitioned table includes every partition key column (0A000). */
    private static void checkKeysIncludePartitionKey(String tableName, List<TableConstraint> constraints, HashPartitioning partitioning) {
        for (TableConstraint constraint : constraints) {
            for (String keyColumn : partitioning.keyColumnNames()) {
                if (!constraint.columnNames().contains(keyColumn)) {
                    throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                            "unique constraint on partitioned table must include all partitioning columns")
                            .withDetail((constraint.primaryKey() ? "PRIMARY KEY" : "UNIQUE") + " constraint on table \"" + tableName
                                    + "\" lacks column \"" + keyColumn + "\" which is part of the partition key.");
                }
            }
        }
    }

    /** {@code PARTITION OF parent FOR VALUES WITH (MODULUS m, REMAINDER r)} (either order), with PostgreSQL's checks. */
    private static Statement parsePartitionOf(TokenCursor cursor, String tableName, boolean ifNotExists, boolean temporary,
                                              boolean global) {
        cursor.expect("partition");
        cursor.expect("of");
        RelationName parentName = cursor.relationName();
        Token bound = cursor.peek();
        if (cursor.accept("default")) {
            cursor.expectEnd();
            throw new ParallaxException(SqlState.INVALID_TABLE_DEFINITION,
                    "a hash-partitioned table may not have a default partition", null, null, 0, null);
        }
        cursor.expect("for");
        cursor.expect("values");
        Token kind = cursor.peek();
        if (kind.isKeyword("in") || kind.isKeyword("from")) {
            throw new ParallaxException(SqlState.INVALID_TABLE_DEFINITION, "invalid bound specification for a hash partition",
                    null, null, kind.position(), null);
        }
        cursor.expect("with");
        cursor.expectSymbol("(");
        Integer modulus = null;
        Integer remainder = null;
        do {
            Token option = cursor.peek();
            String name = cursor.name();
            Token value = cursor.next();
            if (value.kind() != TokenKind.NUMBER) {
                throw cursor.syntaxError(value);
            }
            int number = parseBoundNumber(value);
            switch (name) {
                case "modulus" -> {
                    if (modulus != null) {
                        throw new ParallaxException(SqlState.SYNTAX_ERROR, "modulus for hash partition provided more than once",
                                null, null, option.position(), null);
                    }
                    modulus = number;
                }
                case "remainder" -> {
                    if (remainder != null) {
                        throw new ParallaxException(SqlState.SYNTAX_ERROR, "remainder for hash partition provided more than once",
                                null, null, option.position(), null);
                    }
                    remainder = number;
                }
                default -> throw new ParallaxException(SqlState.SYNTAX_ERROR,
                        "unrecognized hash partition bound specification \"" + name + "\"", null, null, option.position(), null);
            }
        } while (cursor.acceptSymbol(","));
        cursor.expectSymbol(")");
        Map<String, String> storageParameters = parseWithStorageParameters(cursor);
        TemporaryTable temporaryTable = parseOnCommit(cursor, temporary, global);
        cursor.expectEnd();
        if (modulus == null) {
            throw ParallaxException.of(SqlState.SYNTAX_ERROR, "modulus for hash partition must be specified");
        }
        if (remainder == null) {
            throw ParallaxException.of(SqlState.SYNTAX_ERROR, "remainder for hash partition must be specified");
        }
        if (modulus <= 0) {
            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "modulus for hash partition must be an integer value greater than zero");
        }
        if (remainder < 0) {
            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "remainder for hash partition must be an integer value greater than or equal to zero");
        }
        if (remainder >= modulus) {
            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "remainder for hash partition must be less than modulus");
        }
        return new CreatePartitionStatement(tableName, ifNotExists, parentName, modulus, remainder, storageParameters, temporaryTable);
    }

    /** A bound's integer; larger than an int is PostgreSQL's 22003 for integer input. */
    private static int parseBoundNumber(Token value) {
        try {
            return Integer.parseInt(value.value());
        } catch (NumberFormatException exception) {
            throw new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + value.value() + "\"",
                    null, null, value.position(), null);
        }
    }

    /** {@code [CONSTRAINT name] CHECK (condition) [NO INHERIT]}: a table constraint, or a column's. */
    private static CheckClause parseCheck(TokenCursor cursor) {
        String name = cursor.accept("constraint") ? cursor.name() : null;
        cursor.expect("check");
        Token open = cursor.peek();
        cursor.expectSymbol("(");
        int textOffset = cursor.peek().start();
        String text = parenthesizedText(cursor, open);
        Token no = cursor.peek();
        if (cursor.accept("no")) {
            cursor.expect("inherit");
            throw notSupported("NO INHERIT constraints are not supported", no);
        }
        return new CheckClause(name, text, textOffset);
    }

    /** {@code [CONSTRAINT name] PRIMARY KEY (cols) | [CONSTRAINT name] UNIQUE (cols)}. */
    private static TableConstraint parseTableConstraint(TokenCursor cursor) {
        String name = cursor.accept("constraint") ? cursor.name() : null;
        Token kind = cursor.peek();
        boolean primaryKey;
        if (cursor.accept("primary")) {
            cursor.expect("key");
            primaryKey = true;
        } else if (cursor.accept("unique")) {
            primaryKey = false;
        } else if (kind.kind() == TokenKind.IDENTIFIER && Set.of("foreign", "exclude").contains(kind.value())) {
            throw notSupported(kind.value().toUpperCase(Locale.ROOT) + " constraints are not supported yet", kind);
        } else {
            throw cursor.syntaxError(kind);
        }
        cursor.expectSymbol("(");
        List<String> columnNames = new ArrayList<>();
        do {
            columnNames.add(cursor.name());
        } while (cursor.acceptSymbol(","));
        cursor.expectSymbol(")");
        return new TableConstraint(name, primaryKey, columnNames);
    }

    /** {@code [CONSTRAINT name] FOREIGN KEY (columns) REFERENCES ...}, a table constraint. */
    private static ForeignKeyClause parseForeignKey(TokenCursor cursor) {
        Token start = cursor.peek();
        String name = cursor.accept("constraint") ? cursor.name() : null;
        cursor.expect("foreign");
        cursor.expect("key");
        List<String> columns = parenthesizedNames(cursor);
        return parseReferences(cursor, name, columns, start.position());
    }

    private static List<String> parenthesizedNames(TokenCursor cursor) {
        cursor.expectSymbol("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(cursor.name());
        } while (cursor.acceptSymbol(","));
        cursor.expectSymbol(")");
        return names;
    }

    /**
     * {@code REFERENCES table [(columns)] [MATCH SIMPLE | FULL] [ON DELETE action] [ON UPDATE action]
     * [NOT DEFERRABLE] [INITIALLY IMMEDIATE]}, the actions in either order; MATCH PARTIAL (as in
     * PostgreSQL) and deferrable constraints are 0A000.
     */
    private static ForeignKeyClause parseReferences(TokenCursor cursor, String name, List<String> columns, int position) {
        cursor.expect("references");
        RelationName referenced = cursor.relationName();
        List<String> referencedColumns = cursor.peek().isSymbol("(") ? parenthesizedNames(cursor) : List.of();
        ReferentialAction onDelete = null;
        ReferentialAction onUpdate = null;
        boolean matchFull = false;
        while (true) {
            Token word = cursor.peek();
            if (cursor.accept("match")) {
                Token kind = cursor.peek();
                if (cursor.accept("simple")) {
                    continue;
                }
                if (cursor.accept("full")) {
                    matchFull = true;
                    continue;
                }
                if (kind.isKeyword("partial")) {
                    throw notSupported("MATCH PARTIAL not yet implemented", kind);
                }
                throw cursor.syntaxError(kind);
            }
            if (word.isKeyword("on") && (cursor.peek(1).isKeyword("delete") || cursor.peek(1).isKeyword("update"))) {
                cursor.next();
                boolean delete = cursor.next().isKeyword("delete");
                if (delete ? onDelete != null : onUpdate != null) {
                    throw new ParallaxException(SqlState.SYNTAX_ERROR, "conflicting or redundant options", null, null, word.position(), null);
                }
                ReferentialAction action = parseReferentialAction(cursor);
                if (delete) {
                    onDelete = action;
                } else {
                    onUpdate = action;
                }
                continue;
            }
            if (word.isKeyword("deferrable") || word.isKeyword("initially") && cursor.peek(1).isKeyword("deferred")) {
                throw notSupported("deferrable foreign keys are not supported", word);
            }
            if (word.isKeyword("not") && cursor.peek(1).isKeyword("deferrable")) {
                cursor.next();
                cursor.next();
                continue;
            }
            if (word.isKeyword("initially") && cursor.peek(1).isKeyword("immediate")) {
                cursor.next();
                cursor.next();
                continue;
            }
            break;
        }
        return new ForeignKeyClause(name, columns, referenced, referencedColumns,
                onDelete == null ? ReferentialAction.NO_ACTION : onDelete, onUpdate == null ? ReferentialAction.NO_ACTION : onUpdate,
                matchFull, position);
    }

    /** {@code NO ACTION | RESTRICT | CASCADE | SET NULL | SET DEFAULT}. */
    private static ReferentialAction parseReferentialAction(TokenCursor cursor) {
        Token word = cursor.peek();
        if (cursor.accept("no")) {
            cursor.expect("action");
            return ReferentialAction.NO_ACTION;
        }
        if (cursor.accept("restrict")) {
            return ReferentialAction.RESTRICT;
        }
        if (cursor.accept("cascade")) {
            return ReferentialAction.CASCADE;
        }
        if (cursor.accept("set")) {
            Token what = cursor.peek();
            ReferentialAction action;
            if (cursor.accept("null")) {
                action = ReferentialAction.SET_NULL;
            } else if (cursor.accept("default")) {
                action = ReferentialAction.SET_DEFAULT;
            } else {
                throw cursor.syntaxError(what);
            }
            if (cursor.peek().isSymbol("(")) {
                throw notSupported("a column list with " + action.text() + " is not supported", cursor.peek());
            }
            return action;
        }
        throw cursor.syntaxError(word);
    }

    /**
     * PostgreSQL's checks on the keys: one primary key (42P16), key columns exist (42703) and appear
     * once (42701). Returns the primary key first, then the unique constraints, without those whose
     * columns repeat an earlier key (PostgreSQL builds one index for them).
     */
    private static List<TableConstraint> validateConstraints(String tableName, Set<String> columnNames,
                                                             List<TableConstraint> constraints, List<Token> starts) {
        TableConstraint primaryKey = null;
        for (int index = 0; index < constraints.size(); index++) {
            TableConstraint constraint = constraints.get(index);
            int position = starts.get(index).position();
            if (constraint.primaryKey()) {
                if (primaryKey != null) {
                    throw new ParallaxException(SqlState.INVALID_TABLE_DEFINITION,
                            "multiple primary keys for table \"" + tableName + "\" are not allowed", null, null, position, null);
                }
                primaryKey = constraint;
            }
            Set<String> seen = new HashSet<>();
            for (String column : constraint.columnNames()) {
                if (!columnNames.contains(column)) {
                    throw new ParallaxException(SqlState.UNDEFINED_COLUMN,
                            "column \"" + column + "\" named in key does not exist", null, null, position, null);
                }
                if (!seen.add(column)) {
                    throw new ParallaxException(SqlState.DUPLICATE_COLUMN, "column \"" + column + "\" appears twice in "
                            + (constraint.primaryKey() ? "primary key" : "unique") + " constraint", null, null, position, null);
                }
            }
        }
        List<TableConstraint> kept = new ArrayList<>();
        if (primaryKey != null) {
            kept.add(primaryKey);
        }
        for (TableConstraint constraint : constraints) {
            if (constraint.primaryKey()) {
                continue;
            }
            boolean redundant = false;
            for (TableConstraint earlier : kept) {
                redundant |= earlier.columnNames().equals(constraint.columnNames());
            }
            if (!redundant) {
                kept.add(constraint);
            }
        }
        return kept;
    }

    /** The columns with every primary key column made NOT NULL, as PostgreSQL does. */
    private static List<ColumnDefinition> keyColumnsNotNull(List<ColumnDefinition> columns, List<TableConstraint> constraints) {
        Set<String> keyColumns = new HashSet<>();
        for (TableConstraint constraint : constraints) {
            if (constraint.primaryKey()) {
                keyColumns.addAll(constraint.columnNames());
            }
        }
        List<ColumnDefinition> result = new ArrayList<>(columns.size());
        for (ColumnDefinition column : columns) {
            result.add(keyColumns.contains(column.name()) && !column.notNull()
                    ? new ColumnDefinition(column.name(), column.type(), true) : column);
        }
        return result;
    }

    // ---- CREATE INDEX ----

    private static Statement parseCreateIndex(TokenCursor cursor, boolean unique) {
        cursor.expect("index");
        boolean concurrently = cursor.accept("concurrently");
        boolean ifNotExists = false;
        String indexName = null;
        if (cursor.accept("if")) {
            cursor.expect("not");
            cursor.expect("exists");
            ifNotExists = true;
            indexName = cursor.name();
        } else if (!cursor.peek().isKeyword("on")) {
            indexName = cursor.name();
        }
        cursor.expect("on");
        boolean only = cursor.accept("only");
        RelationName tableName = cursor.relationName();
        if (cursor.accept("using")) {
            Token method = cursor.peek();
            String methodName = cursor.name();
            if (!methodName.equals("btree")) {
                throw notSupported("access method \"" + methodName + "\" is not supported", method);
            }
        }
        cursor.expectSymbol("(");
        List<String> columns = new ArrayList<>();
        List<Boolean> descending = new ArrayList<>();
        do {
            Token column = cursor.peek();
            if (column.isSymbol("(")) {
                throw notSupported("index expressions are not supported", column);
            }
            columns.add(cursor.name());
            // ASC with NULLs last (a btree's default) or DESC with NULLs first (DESC's default); the
            // other placements of NULLs are not kept.
            boolean desc = cursor.accept("desc");
            if (!desc) {
                cursor.accept("asc");
            }
            descending.add(desc);
            Token order = cursor.peek();
            if (order.isKeyword("collate")) {
                throw notSupported("index key option " + order.value().toUpperCase(Locale.ROOT) + " is not supported", order);
            }
            if (cursor.accept("nulls")) {
                Token placement = cursor.peek();
                if (!placement.isKeyword("first") && !placement.isKeyword("last")) {
                    throw cursor.syntaxError(placement);
                }
                if (placement.isKeyword("first") != desc) {
                    throw notSupported((desc ? "DESC NULLS LAST" : "NULLS FIRST") + " index keys are not supported", placement);
                }
                cursor.next();
            }
        } while (cursor.acceptSymbol(","));
        cursor.expectSymbol(")");
        Token trailing = cursor.peek();
        if (trailing.isKeyword("include") || trailing.isKeyword("with") || trailing.isKeyword("where") || trailing.isKeyword("tablespace")) {
            throw notSupported("CREATE INDEX ... " + trailing.value().toUpperCase(Locale.ROOT) + " is not supported", trailing);
        }
        cursor.expectEnd();
        return new CreateIndexStatement(indexName, ifNotExists, tableName, columns, descending, concurrently, unique, only);
    }

    private static ColumnDefinition parseColumn(TokenCursor cursor, String tableName, List<TableConstraint> constraints,
                                                List<Token> constraintStarts, Map<String, String> defaultExpressions,
                                                Map<String, IdentityClause> identities, List<CheckClause> checks,
                                                List<ForeignKeyClause> foreignKeys) {
        Token start = cursor.peek();
        if (start.kind() == TokenKind.IDENTIFIER) {
            switch (start.value()) {
                case "exclude", "like" ->
                        throw notSupported("table constraints are not supported yet", start);
                default -> {
                }
            }
        }
        String name = cursor.name();
        Token typeToken = cursor.peek();
        DataType serialType = typeToken.kind() == TokenKind.IDENTIFIER ? serialType(typeToken.value()) : null;
        DataType type;
        if (serialType != null) {
            // serial: an integer column, NOT NULL, defaulting to nextval of a sequence the table owns.
            cursor.next();
            type = serialType;
            identities.put(name, new IdentityClause(ColumnDefault.Identity.NONE, SequenceOptions.Declared.NONE, null));
        } else {
            type = TypeNameParser.parse(cursor);
        }
        Boolean notNull = null;
        while (!cursor.peek().isSymbol(",") && !cursor.peek().isSymbol(")") && !cursor.atEnd()) {
            Token constraint = cursor.peek();
            if (constraint.isKeyword("check") || constraint.isKeyword("constraint") && cursor.peek(2).isKeyword("check")) {
                checks.add(parseCheck(cursor));
                continue;
            }
            String constraintName = cursor.accept("constraint") ? cursor.name() : null;
            Token keyword = cursor.peek();
            if (cursor.accept("primary")) {
                cursor.expect("key");
                constraints.add(new TableConstraint(constraintName, true, List.of(name)));
                constraintStarts.add(constraint);
                continue;
            }
            if (cursor.accept("unique")) {
                constraints.add(new TableConstraint(constraintName, false, List.of(name)));
                constraintStarts.add(constraint);
                continue;
            }
            if (keyword.isKeyword("references")) {
                foreignKeys.add(parseReferences(cursor, constraintName, List.of(name), constraint.position()));
                continue;
            }
            if (keyword.isKeyword("generated")) {
                IdentityClause identity = parseIdentity(cursor);
                if (identities.containsKey(name)) {
                    throw new ParallaxException(SqlState.SYNTAX_ERROR, (identities.get(name).kind() == ColumnDefault.Identity.NONE
                            ? "both default and identity specified for column \"" : "multiple identity specifications for column \"")
                            + name + "\" of table \"" + tableName + "\"", null, null, keyword.position(), null);
                }
                if (defaultExpressions.containsKey(name)) {
                    throw new ParallaxException(SqlState.SYNTAX_ERROR, "both default and identity specified for column \""
                            + name + "\" of table \"" + tableName + "\"", null, null, keyword.position(), null);
                }
                identities.put(name, identity);
                continue;
            }
            if (keyword.isKeyword("default")) {
                cursor.next();
                IdentityClause identity = identities.get(name);
                if (identity != null && identity.kind() != ColumnDefault.Identity.NONE) {
                    throw new ParallaxException(SqlState.SYNTAX_ERROR, "both default and identity specified for column \""
                            + name + "\" of table \"" + tableName + "\"", null, null, keyword.position(), null);
                }
                if (defaultExpressions.containsKey(name) || identity != null) {
                    throw new ParallaxException(SqlState.SYNTAX_ERROR, "multiple default values specified for column \""
                            + name + "\" of table \"" + tableName + "\"", null, null, keyword.position(), null);
                }
                defaultExpressions.put(name, defaultExpression(cursor));
                continue;
            }
            if (constraintName != null && !keyword.isKeyword("not") && !keyword.isKeyword("null")) {
                throw keyword.kind() == TokenKind.END ? cursor.syntaxError(keyword)
                        : notSupported("column constraint " + keyword.value().toUpperCase(Locale.ROOT) + " is not supported yet", keyword);
            }
            boolean declaredNotNull;
            if (cursor.accept("not")) {
                cursor.expect("null");
                declaredNotNull = true;
            } else if (cursor.accept("null")) {
                declaredNotNull = false;
            } else if (constraint.kind() == TokenKind.IDENTIFIER && Set.of(
                    "generated", "collate").contains(constraint.value())) {
                throw notSupported("column constraint " + constraint.value().toUpperCase(Locale.ROOT) + " is not supported yet", constraint);
            } else {
                throw cursor.syntaxError(constraint);
            }
            if (notNull != null && notNull != declaredNotNull) {
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "conflicting NULL/NOT NULL declarations for column \""
                        + name + "\" of table \"" + tableName + "\"", null, null, constraint.position(), null);
            }
            notNull = declaredNotNull;
        }
        // serial and identity columns are NOT NULL, as in PostgreSQL.
        return new ColumnDefinition(name, type, notNull != null && notNull || identities.containsKey(name));
    }

    /** The integer type of PostgreSQL's serial pseudo-types, or null for another name. */
    private static DataType serialType(String name) {
        return switch (name) {
            case "serial", "serial4" -> DataType.INTEGER;
            case "bigserial", "serial8" -> DataType.BIGINT;
            case "smallserial", "serial2" -> DataType.SMALLINT;
            default -> null;
        };
    }

    /** Words that end a column's DEFAULT expression: the next column constraint. */
    private static final Set<String> COLUMN_CONSTRAINT_WORDS = Set.of("not", "null", "primary", "unique", "constraint", "check",
            "references", "generated", "collate", "default");

    /**
     * The text of a DEFAULT expression (PostgreSQL's b_expr): everything up to the next column
     * constraint, or the comma or parenthesis that ends the column, outside parentheses.
     */
    private static String defaultExpression(TokenCursor cursor) {
        Token first = cursor.peek();
        if (cursor.atEnd() || first.isSymbol(",") || first.isSymbol(")")) {
            throw cursor.syntaxError(first);
        }
        int depth = 0;
        Token last = first;
        while (true) {
            Token token = cursor.peek();
            if (token.kind() == TokenKind.END || token.isSymbol(";")) {
                break;
            }
            if (depth == 0 && token != first && (token.isSymbol(",") || token.isSymbol(")")
                    || token.kind() == TokenKind.IDENTIFIER && COLUMN_CONSTRAINT_WORDS.contains(token.value()))) {
                break;
            }
            if (token.isSymbol("(")) {
                depth++;
            } else if (token.isSymbol(")")) {
                depth--;
            }
            last = cursor.next();
        }
        return cursor.sql().substring(first.start(), last.end());
    }

    /**
     * {@code GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(sequence options)]}, at GENERATED; a
     * generated column ({@code GENERATED ALWAYS AS (expression)}) is 0A000.
     */
    private static IdentityClause parseIdentity(TokenCursor cursor) {
        Token keyword = cursor.next();
        ColumnDefault.Identity kind;
        if (cursor.accept("always")) {
            kind = ColumnDefault.Identity.ALWAYS;
        } else {
            cursor.expect("by");
            cursor.expect("default");
            kind = ColumnDefault.Identity.BY_DEFAULT;
        }
        cursor.expect("as");
        if (cursor.peek().isSymbol("(")) {
            throw notSupported("generated columns are not supported", keyword);
        }
        cursor.expect("identity");
        SequenceOptions.Declared options = SequenceOptions.Declared.NONE;
        SequenceOptionExtras extras = SequenceOptionExtras.forIdentity();
        if (cursor.acceptSymbol("(")) {
            options = parseSequenceOptions(cursor, extras);
            cursor.expectSymbol(")");
        }
        return new IdentityClause(kind, options, extras.sequenceName);
    }

    // ---- SEQUENCES ----

    private static Statement parseCreateSequence(TokenCursor cursor) {
        cursor.expect("sequence");
        boolean ifNotExists = false;
        if (cursor.accept("if")) {
            cursor.expect("not");
            cursor.expect("exists");
            ifNotExists = true;
        }
        String name = cursor.permanentRelationName("sequences");
        SequenceOptionExtras extras = SequenceOptionExtras.forCreate();
        SequenceOptions.Declared options = parseSequenceOptions(cursor, extras);
        cursor.expectEnd();
        return new CreateSequenceStatement(name, ifNotExists, options, extras.ownedBy);
    }

    /**
     * Sequence options in any order, each once (42601 "conflicting or redundant options"): AS type,
     * INCREMENT [BY] n, MINVALUE n | NO MINVALUE, MAXVALUE n | NO MAXVALUE, START [WITH] n, CACHE n,
     * [NO] CYCLE; and those of {@code extras} the statement takes: RESTART [[WITH] n], OWNED BY
     * table.column | NONE, SEQUENCE NAME name. Stops at the end of the statement or at a closing
     * parenthesis (an identity column's options).
     */
    private static SequenceOptions.Declared parseSequenceOptions(TokenCursor cursor, SequenceOptionExtras extras) {
        DataType type = null;
        Long increment = null;
        Long minValue = null;
        Long maxValue = null;
        Long start = null;
        Long cache = null;
        Boolean cycle = null;
        Set<String> seen = new HashSet<>();
        while (!cursor.atEnd() && !cursor.peek().isSymbol(")")) {
            Token option = cursor.next();
            String word = option.kind() == TokenKind.IDENTIFIER ? option.value() : "";
            boolean negated = false;
            if (word.equals("no")) {
                Token what = cursor.next();
                if (!what.isKeyword("minvalue") && !what.isKeyword("maxvalue") && !what.isKeyword("cycle")) {
                    throw cursor.syntaxError(what);
                }
                word = what.value();
                negated = true;
            }
            if (!seen.add(word)) {
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "conflicting or redundant options", null, null, option.position(), null);
            }
            switch (word) {
                case "as" -> type = TypeNameParser.parse(cursor);
                case "increment" -> {
                    cursor.accept("by");
                    increment = signedLong(cursor);
                }
                case "minvalue" -> minValue = negated ? null : signedLong(cursor);
                case "maxvalue" -> maxValue = negated ? null : signedLong(cursor);
                case "start" -> {
                    cursor.accept("with");
                    start = signedLong(cursor);
                }
                case "cache" -> cache = signedLong(cursor);
                case "cycle" -> cycle = !negated;
                case "restart" -> {
                    if (!extras.restartAllowed) {
                        throw cursor.syntaxError(option);
                    }
                    extras.restarted = true;
                    cursor.accept("with");
                    Token next = cursor.peek();
                    if (next.kind() == TokenKind.NUMBER || next.isSymbol("-") || next.isSymbol("+")) {
                        extras.restartValue = signedLong(cursor);
                    }
                }
                case "owned" -> {
                    cursor.expect("by");
                    if (!extras.ownedByAllowed) {
                        throw new ParallaxException(SqlState.SYNTAX_ERROR, "invalid sequence option OWNED BY", null, null, option.position(), null);
                    }
                    extras.ownedBy = parseSequenceOwner(cursor);
                }
                case "sequence" -> {
                    cursor.expect("name");
                    if (!extras.sequenceNameAllowed) {
                        throw new ParallaxException(SqlState.SYNTAX_ERROR, "invalid sequence option SEQUENCE NAME", null, null, option.position(), null);
                    }
                    extras.sequenceName = cursor.permanentRelationName("sequences");
                }
                default -> throw cursor.syntaxError(option);
            }
        }
        return new SequenceOptions.Declared(type, increment, minValue, maxValue, start, cache, cycle);
    }

    /** {@code NONE} or {@code [public.]table.column}, after OWNED BY. */
    private static SequenceOwner parseSequenceOwner(TokenCursor cursor) {
        Token first = cursor.peek();
        if (first.isKeyword("none") && !cursor.peek(1).isSymbol(".")) {
            cursor.next();
            return SequenceOwner.NONE;
        }
        List<String> names = new ArrayList<>();
        do {
            names.add(cursor.name());
        } while (cursor.acceptSymbol("."));
        if (names.size() == 1) {
            throw new ParallaxException(SqlState.SYNTAX_ERROR, "invalid OWNED BY option", null,
                    "Specify OWNED BY table.column or OWNED BY NONE.", 0, null);
        }
        if (names.size() > 3) {
            throw notSupported("schema \"" + names.getFirst() + "\" does not exist", first);
        }
        RelationName table = names.size() == 3 ? TokenCursor.qualified(first, names.getFirst(), names.get(1))
                : RelationName.unqualified(names.getFirst());
        return new SequenceOwner(table, names.getLast());
    }

    /** An integer constant with an optional sign. */
    private static long signedLong(TokenCursor cursor) {
        boolean negative = false;
        if (cursor.acceptSymbol("-")) {
            negative = true;
        } else {
            cursor.acceptSymbol("+");
        }
        Token number = cursor.next();
        if (number.kind() != TokenKind.NUMBER) {
            throw cursor.syntaxError(number);
        }
        try {
            return Long.parseLong((negative ? "-" : "") + number.value());
        } catch (NumberFormatException notInteger) {
            throw cursor.syntaxError(number);
        }
    }

    // ---- CREATE VIEW ----

    private static Statement parseCreateView(TokenCursor cursor) {
        boolean orReplace = false;
        if (cursor.accept("or")) {
            cursor.expect("replace");
            orReplace = true;
        }
        Token what = cursor.peek();
        if (!cursor.accept("view")) {
            if (what.kind() == TokenKind.END) {
                throw cursor.syntaxError(what);
            }
            throw notSupported("CREATE OR REPLACE " + what.value().toUpperCase(Locale.ROOT) + " is not supported", what);
        }
        String viewName = cursor.permanentRelationName("views");
        List<String> columns = cursor.optionalNameList();
        cursor.expect("as");
        Token queryStart = cursor.peek();
        if (cursor.atEnd()) {
            throw cursor.syntaxError(queryStart);
        }
        String query = cursor.sql().substring(queryStart.start()).strip();
        while (query.endsWith(";")) {
            query = query.substring(0, query.length() - 1).strip();
        }
        return new CreateViewStatement(viewName, columns, query, orReplace);
    }

    // ---- DROP TABLE ----

    private static Statement parseDrop(TokenCursor cursor) {
        cursor.expect("drop");
        Token what = cursor.peek();
        if (cursor.accept("sequence")) {
            boolean ifExists = false;
            if (cursor.accept("if")) {
                cursor.expect("exists");
                ifExists = true;
            }
            List<RelationName> names = new ArrayList<>();
            do {
                names.add(cursor.relationName());
            } while (cursor.acceptSymbol(","));
            Token behavior = cursor.peek();
            if (cursor.accept("cascade")) {
                throw notSupported("DROP SEQUENCE ... CASCADE is not supported", behavior);
            }
            cursor.accept("restrict");
            cursor.expectEnd();
            return new DropSequenceStatement(names, ifExists);
        }
        if (cursor.accept("index")) {
            // Dropping an in-memory index never blocks readers, so CONCURRENTLY changes nothing.
            cursor.accept("concurrently");
            boolean ifExists = false;
            if (cursor.accept("if")) {
                cursor.expect("exists");
                ifExists = true;
            }
            List<RelationName> names = new ArrayList<>();
            do {
                names.add(cursor.relationName());
            } while (cursor.acceptSymbol(","));
            if (!cursor.accept("cascade")) {
                cursor.accept("restrict");
            }
            cursor.expectEnd();
            return new DropIndexStatement(names, ifExists);
        }
        boolean view = cursor.accept("view");
        if (!view && !cursor.accept("table")) {
            if (what.kind() == TokenKind.END) {
                throw cursor.syntaxError(what);
            }
            throw notSupported("DROP " + what.value().toUpperCase(Locale.ROOT) + " is not supported", what);
        }
        boolean ifExists = false;
        if (cursor.accept("if")) {
            cursor.expect("exists");
            ifExists = true;
        }
        List<RelationName> names = new ArrayList<>();
        do {
            names.add(cursor.relationName());
        } while (cursor.acceptSymbol(","));
        // CASCADE drops the foreign keys that reference a dropped table (views are not tracked as dependents).
        boolean cascade = cursor.accept("cascade");
        if (!cascade) {
            cursor.accept("restrict");
        }
        cursor.expectEnd();
        return view ? new DropViewStatement(names, ifExists) : new DropTableStatement(names, ifExists, cascade);
    }

    // ---- SET / SHOW / RESET ----

    /**
     * {@code SELECT [pg_catalog.]set_config('name', 'value', true | false)}, the whole statement, or
     * null when the text is anything else (a query for the planner).
     */
    private static SetConfigStatement parseSetConfig(String sql) {
        TokenCursor cursor = new TokenCursor(sql);
        cursor.expect("select");
        if (cursor.peek().isKeyword("pg_catalog") && cursor.peek(1).isSymbol(".")) {
            cursor.next();
            cursor.next();
        }
        if (!cursor.accept("set_config") || !cursor.acceptSymbol("(")) {
            return null;
        }
        Token name = cursor.next();
        if (name.kind() != TokenKind.STRING || !cursor.acceptSymbol(",")) {
            return null;
        }
        Token value = cursor.next();
        if (value.kind() != TokenKind.STRING || !cursor.acceptSymbol(",")) {
            return null;
        }
        Token local = cursor.next();
        if (!local.isKeyword("true") && !local.isKeyword("false") || !cursor.acceptSymbol(")")) {
            return null;
        }
        cursor.acceptSymbol(";");
        if (cursor.peek().kind() != TokenKind.END) {
            return null;
        }
        return new SetConfigStatement(name.value(), value.value(), local.isKeyword("true"));
    }

    private static Statement parseSet(TokenCursor cursor) {
        cursor.expect("set");
        boolean local = false;
        if (cursor.accept("local")) {
            local = true;
        } else {
            cursor.accept("session");
        }
        Token nameToken = cursor.peek();
        if (nameToken.isKeyword("transaction") || nameToken.isKeyword("characteristics") || nameToken.isKeyword("constraints")
                || nameToken.isKeyword("role") || nameToken.isKeyword("authorization")) {
            throw notSupported("SET " + nameToken.value().toUpperCase(Locale.ROOT) + " is not supported", nameToken);
        }
        if (cursor.accept("time")) {
            cursor.expect("zone");
            String value = cursor.accept("local") || cursor.accept("default") ? null : settingValue(cursor);
            cursor.expectEnd();
            return new SetStatement("TimeZone", value, local);
        }
        if (nameToken.isKeyword("names") && !cursor.peek(1).isSymbol("=") && !cursor.peek(1).isKeyword("to")) {
            cursor.next();
            String value = cursor.accept("default") ? null : settingValue(cursor);
            cursor.expectEnd();
            return new SetStatement("client_encoding", value, local);
        }
        String name = settingName(cursor);
        if (!cursor.acceptSymbol("=") && !cursor.accept("to")) {
            throw cursor.syntaxError(cursor.peek());
        }
        if (cursor.accept("default")) {
            cursor.expectEnd();
            return new SetStatement(name, null, local);
        }
        String value = settingValues(cursor);
        cursor.expectEnd();
        return new SetStatement(name, value, local);
    }

    /** The value list of SET: one value, or several joined with ", " as PostgreSQL stores a list setting. */
    private static String settingValues(TokenCursor cursor) {
        List<String> values = new ArrayList<>();
        do {
            values.add(settingValue(cursor));
        } while (cursor.acceptSymbol(","));
        return String.join(", ", values);
    }

    /** A setting name, possibly qualified ({@code parallax.x}); case-folded unless quoted. */
    private static String settingName(TokenCursor cursor) {
        StringBuilder name = new StringBuilder(cursor.name());
        while (cursor.acceptSymbol(".")) {
            name.append('.').append(cursor.name());
        }
        return name.toString();
    }

    /** One value of SET: a name or keyword, a string, or a signed number (a unit may follow it: {@code 64MB}). */
    private static String settingValue(TokenCursor cursor) {
        Token token = cursor.peek();
        if (token.kind() == TokenKind.STRING || token.isName()) {
            cursor.next();
            return token.value();
        }
        String sign = "";
        if (token.isSymbol("-") || token.isSymbol("+")) {
            cursor.next();
            sign = token.value().equals("-") ? "-" : "";
            token = cursor.peek();
        }
        if (token.kind() != TokenKind.NUMBER) {
            throw cursor.syntaxError(token);
        }
        cursor.next();
        Token unit = cursor.peek();
        if (unit.kind() == TokenKind.IDENTIFIER && unit.start() == token.end()) {
            // "64MB" written without quotes: keep the unit's case, memory units are case-sensitive.
            cursor.next();
            return sign + token.value() + cursor.sql().substring(unit.start(), unit.end());
        }
        return sign + token.value();
    }

    private static Statement parseShow(TokenCursor cursor) {
        cursor.expect("show");
        if (cursor.accept("all")) {
            cursor.expectEnd();
            return new ShowStatement(null, true);
        }
        if (cursor.accept("time")) {
            cursor.expect("zone");
            cursor.expectEnd();
            return new ShowStatement("TimeZone", false);
        }
        String name = settingName(cursor);
        cursor.expectEnd();
        return new ShowStatement(name, false);
    }

    private static Statement parseReset(TokenCursor cursor) {
        cursor.expect("reset");
        if (cursor.accept("all")) {
            cursor.expectEnd();
            return new ResetStatement(null, true);
        }
        if (cursor.accept("time")) {
            cursor.expect("zone");
            cursor.expectEnd();
            return new ResetStatement("TimeZone", false);
        }
        String name = settingName(cursor);
        cursor.expectEnd();
        return new ResetStatement(name, false);
    }

    // ---- ALTER TABLE ... SET / RESET (options) ----

    private static Statement parseAlter(TokenCursor cursor) {
        cursor.expect("alter");
        Token what = cursor.peek();
        if (cursor.accept("sequence")) {
            boolean ifExists = false;
            if (cursor.accept("if")) {
                cursor.expect("exists");
                ifExists = true;
            }
            RelationName name = cursor.relationName();
            if (cursor.peek().isKeyword("owner")) {
                return PrivilegeStatementParser.parseOwnerTo(cursor, "ALTER SEQUENCE", PrivilegeStatement.ObjectKind.SEQUENCE, name.name(), ifExists);
            }
            SequenceOptionExtras extras = SequenceOptionExtras.forAlter();
            SequenceOptions.Declared options = parseSequenceOptions(cursor, extras);
            cursor.expectEnd();
            return new AlterSequenceStatement(name, ifExists, options, extras.restarted, extras.restartValue, extras.ownedBy);
        }
        if (cursor.accept("system")) {
            return parseAlterSystem(cursor);
        }
        if (cursor.accept("view")) {
            boolean ifExists = acceptIfExists(cursor);
            RelationName viewName = cursor.relationName();
            Token action = cursor.peek();
            if (action.isKeyword("owner")) {
                return PrivilegeStatementParser.parseOwnerTo(cursor, "ALTER VIEW", PrivilegeStatement.ObjectKind.VIEW, viewName.name(), ifExists);
            }
            if (!cursor.accept("rename")) {
                if (action.kind() == TokenKind.END) {
                    throw cursor.syntaxError(action);
                }
                throw notSupported("ALTER VIEW ... " + describe(cursor.sql(), action) + " is not supported", action);
            }
            cursor.expect("to");
            String newName = cursor.name();
            cursor.expectEnd();
            return new RenameRelationStatement(viewName, ifExists, newName, true);
        }
        if (what.isKeyword("schema") && cursor.peek(2).isKeyword("owner")) {
            cursor.next();
            String schema = cursor.name();
            return PrivilegeStatementParser.parseOwnerTo(cursor, "ALTER SCHEMA", PrivilegeStatement.ObjectKind.SCHEMA, schema, false);
        }
        if (!cursor.accept("table")) {
            if (what.kind() == TokenKind.END) {
                throw cursor.syntaxError(what);
            }
            throw notSupported("ALTER " + what.value().toUpperCase(Locale.ROOT) + " is not supported", what);
        }
        Token ifToken = cursor.peek();
        boolean ifExists = acceptIfExists(cursor);
        boolean only = cursor.accept("only");
        RelationName tableName = cursor.relationName();
        Token action = cursor.peek();
        if (action.isKeyword("owner")) {
            return PrivilegeStatementParser.parseOwnerTo(cursor, "ALTER TABLE", PrivilegeStatement.ObjectKind.RELATION, tableName.name(), ifExists);
        }
        if (cursor.accept("rename")) {
            return parseRename(cursor, tableName, ifExists, only);
        }
        if (action.isKeyword("add") || action.isKeyword("drop") || action.isKeyword("alter")) {
            return parseColumnActions(cursor, tableName, ifExists, only);
        }
        if (ifExists) {
            throw notSupported("ALTER TABLE IF EXISTS is not supported with SET or RESET", ifToken);
        }
        Map<String, String> set = new LinkedHashMap<>();
        List<String> reset = new ArrayList<>();
        if (cursor.accept("set")) {
            if (!cursor.peek().isSymbol("(")) {
                throw notSupported("ALTER TABLE ... SET " + describe(cursor.sql(), cursor.peek()) + " is not supported", cursor.peek());
            }
            set = parseStorageParameters(cursor);
        } else if (cursor.accept("reset")) {
            cursor.expectSymbol("(");
            do {
                reset.add(settingName(cursor));
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        } else {
            if (action.kind() == TokenKind.END) {
                throw cursor.syntaxError(action);
            }
            throw notSupported("ALTER TABLE ... " + describe(cursor.sql(), action) + " is not supported", action);
        }
        cursor.expectEnd();
        return new AlterTableOptionsStatement(tableName, set, reset);
    }

    /**
     * {@code (name [= value], ...)}: the storage parameters of CREATE TABLE ... WITH and ALTER TABLE
     * ... SET, name to value text (null when written without a value), in the order written.
     */
    private static Map<String, String> parseStorageParameters(TokenCursor cursor) {
        Map<String, String> parameters = new LinkedHashMap<>();
        cursor.expectSymbol("(");
        do {
            String option = settingName(cursor);
            String value = null;
            if (cursor.acceptSymbol("=")) {
                value = settingValue(cursor);
            }
            parameters.put(option, value);
        } while (cursor.acceptSymbol(","));
        cursor.expectSymbol(")");
        return parameters;
    }

    /** An optional {@code WITH (name [= value], ...)} after a table's definition; empty when absent. */
    static Map<String, String> parseWithStorageParameters(TokenCursor cursor) {
        return cursor.accept("with") ? parseStorageParameters(cursor) : Map.of();
    }

    /** {@code SET name {= | TO} value | DEFAULT}, {@code RESET name} or {@code RESET ALL}, after ALTER SYSTEM. */
    private static Statement parseAlterSystem(TokenCursor cursor) {
        if (cursor.accept("reset")) {
            String name = cursor.accept("all") ? null : settingName(cursor);
            cursor.expectEnd();
            return new AlterSystemStatement(name, null);
        }
        if (!cursor.accept("set")) {
            throw cursor.syntaxError(cursor.peek());
        }
        String name = settingName(cursor);
        if (!cursor.acceptSymbol("=") && !cursor.accept("to")) {
            throw cursor.syntaxError(cursor.peek());
        }
        if (cursor.accept("default")) {
            cursor.expectEnd();
            return new AlterSystemStatement(name, null);
        }
        String value = settingValues(cursor);
        cursor.expectEnd();
        return new AlterSystemStatement(name, value);
    }

    private static boolean acceptIfExists(TokenCursor cursor) {
        if (cursor.peek().isKeyword("if") && cursor.peek(1).isKeyword("exists")) {
            cursor.next();
            cursor.next();
            return true;
        }
        return false;
    }

    /** {@code RENAME TO name} or {@code RENAME [COLUMN] column TO name}, after ALTER TABLE name RENAME. */
    private static Statement parseRename(TokenCursor cursor, RelationName tableName, boolean ifExists, boolean only) {
        if (cursor.accept("to")) {
            String newName = cursor.name();
            cursor.expectEnd();
            return new RenameRelationStatement(tableName, ifExists, newName, false);
        }
        Token constraint = cursor.peek();
        if (constraint.isKeyword("constraint")) {
            throw notSupported("ALTER TABLE ... RENAME CONSTRAINT is not supported", constraint);
        }
        cursor.accept("column");
        String column = cursor.name();
        cursor.expect("to");
        String newName = cursor.name();
        cursor.expectEnd();
        return new RenameColumnStatement(tableName, ifExists, only, column, newName);
    }

    /**
     * {@code action [, action ...]} after ALTER TABLE name, each {@code ADD [COLUMN] [IF NOT EXISTS]
     * column definition}, {@code ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE (columns)}, {@code DROP [COLUMN] [IF EXISTS] column [RESTRICT | CASCADE]} or
     * {@code ALTER [COLUMN] column SET DEFAULT expression | DROP DEFAULT | SET NOT NULL | DROP NOT NULL | ADD GENERATED ... AS IDENTITY}.
     */
    private static Statement parseColumnActions(TokenCursor cursor, RelationName tableName, boolean ifExists, boolean only) {
        List<AlterTableAction> actions = new ArrayList<>();
        do {
            Token verb = cursor.peek();
            if (cursor.accept("add")) {
                Token what = cursor.peek();
                if (what.isKeyword("check") || what.isKeyword("constraint") && cursor.peek(2).isKeyword("check")) {
                    CheckClause check = parseCheck(cursor);
                    refuseNotValid(cursor);
                    actions.add(new AlterTableAction.AddCheck(check));
                } else if (what.isKeyword("foreign") || what.isKeyword("constraint") && cursor.peek(2).isKeyword("foreign")) {
                    ForeignKeyClause key = parseForeignKey(cursor);
                    refuseNotValid(cursor);
                    actions.add(new AlterTableAction.AddForeignKey(key));
                } else if (what.isKeyword("primary") || what.isKeyword("unique") || what.isKeyword("constraint")
                        && (cursor.peek(2).isKeyword("primary") || cursor.peek(2).isKeyword("unique"))) {
                    TableConstraint key = parseTableConstraint(cursor);
                    Set<String> seen = new HashSet<>();
                    for (String column : key.columnNames()) {
                        if (!seen.add(column)) {
                            throw new ParallaxException(SqlState.DUPLICATE_COLUMN, "column \"" + column + "\" appears twice in "
                                    + (key.primaryKey() ? "primary key" : "unique") + " constraint", null, null, what.position(), null);
                        }
                    }
                    actions.add(new AlterTableAction.AddKey(key, what.position()));
                } else {
                    actions.add(parseAddColumn(cursor, tableName.name()));
                }
            } else if (cursor.peek().isKeyword("drop") && cursor.peek(1).isKeyword("constraint")) {
                cursor.next();
                cursor.next();
                boolean constraintIfExists = acceptIfExists(cursor);
                String name = cursor.name();
                if (!cursor.accept("cascade")) {
                    cursor.accept("restrict");
                }
                actions.add(new AlterTableAction.DropConstraint(name, constraintIfExists));
            } else if (cursor.accept("drop")) {
                refuseConstraintAction(cursor, "DROP");
                cursor.accept("column");
                boolean columnIfExists = acceptIfExists(cursor);
                String column = cursor.name();
                boolean cascade = cursor.accept("cascade");
                if (!cascade) {
                    cursor.accept("restrict");
                }
                actions.add(new AlterTableAction.DropColumn(column, columnIfExists, cascade));
            } else if (cursor.accept("alter")) {
                actions.add(parseAlterColumn(cursor));
            } else if (verb.kind() == TokenKind.END) {
                throw cursor.syntaxError(verb);
            } else {
                throw notSupported("ALTER TABLE ... " + describe(cursor.sql(), verb) + " is not supported", verb);
            }
        } while (cursor.acceptSymbol(","));
        cursor.expectEnd();
        return new AlterTableStatement(tableName, ifExists, only, actions);
    }

    /** {@code [COLUMN] [IF NOT EXISTS] column definition} (as in CREATE TABLE), after ADD. */
    private static AlterTableAction parseAddColumn(TokenCursor cursor, String tableName) {
        refuseConstraintAction(cursor, "ADD");
        cursor.accept("column");
        boolean ifNotExists = false;
        if (cursor.peek().isKeyword("if") && cursor.peek(1).isKeyword("not")) {
            cursor.next();
            cursor.next();
            cursor.expect("exists");
            ifNotExists = true;
        }
        List<TableConstraint> constraints = new ArrayList<>();
        List<Token> constraintStarts = new ArrayList<>();
        Map<String, String> defaultExpressions = new LinkedHashMap<>();
        Map<String, IdentityClause> identities = new LinkedHashMap<>();
        List<CheckClause> checks = new ArrayList<>();
        Token columnStart = cursor.peek();
        List<ForeignKeyClause> foreignKeys = new ArrayList<>();
        ColumnDefinition column = parseColumn(cursor, tableName, constraints, constraintStarts, defaultExpressions, identities, checks,
                foreignKeys);
        if (!foreignKeys.isEmpty()) {
            throw notSupported("REFERENCES of an added column is not supported yet: add the column, then the constraint", columnStart);
        }
        if (!checks.isEmpty()) {
            throw notSupported("CHECK constraints of an added column are not supported yet: add the column, then the constraint", columnStart);
        }
        List<TableConstraint> validated = validateConstraints(tableName, Set.of(column.name()), constraints, constraintStarts);
        ColumnDefinition keyed = keyColumnsNotNull(List.of(column), constraints).getFirst();
        return new AlterTableAction.AddColumn(keyed, defaultExpressions.get(column.name()), identities.get(column.name()),
                validated, ifNotExists);
    }

    /** ADD / DROP of a table constraint is not supported yet (0A000 at the word). */
    private static void refuseConstraintAction(TokenCursor cursor, String verb) {
        Token next = cursor.peek();
        if (next.kind() == TokenKind.IDENTIFIER && Set.of("constraint", "primary", "unique", "foreign", "exclude").contains(next.value())) {
            throw notSupported("ALTER TABLE ... " + verb + " " + next.value().toUpperCase(Locale.ROOT) + " is not supported yet", next);
        }
    }

    /**
     * {@code [COLUMN] column SET DEFAULT expression | DROP DEFAULT | SET NOT NULL | DROP NOT NULL | ADD GENERATED
     * {ALWAYS | BY DEFAULT} AS IDENTITY [(options)]}, after ALTER.
     */
    private static AlterTableAction parseAlterColumn(TokenCursor cursor) {
        cursor.accept("column");
        String column = cursor.name();
        Token action = cursor.peek();
        Token second = cursor.peek(1);
        if (action.isKeyword("set") && second.isKeyword("default")) {
            cursor.next();
            cursor.next();
            return new AlterTableAction.SetDefault(column, defaultExpression(cursor));
        }
        if (action.isKeyword("drop") && second.isKeyword("default")) {
            cursor.next();
            cursor.next();
            return new AlterTableAction.SetDefault(column, null);
        }
        if (action.isKeyword("add") && second.isKeyword("generated")) {
            cursor.next();
            return new AlterTableAction.AddIdentity(column, parseIdentity(cursor));
        }
        if ((action.isKeyword("set") || action.isKeyword("drop")) && second.isKeyword("not")) {
            cursor.next();
            cursor.next();
            cursor.expect("null");
            return new AlterTableAction.SetNotNull(column, action.isKeyword("set"));
        }
        if (action.kind() == TokenKind.END) {
            throw cursor.syntaxError(action);
        }
        throw notSupported("ALTER TABLE ... ALTER COLUMN ... " + describe(cursor.sql(), action) + " is not supported", action);
    }

    private static String describe(String sql, Token token) {
        return sql.substring(token.start(), token.end()).toUpperCase(Locale.ROOT);
    }

    // ---- CALL ----

    private static Statement parseCall(TokenCursor cursor) {
        cursor.expect("call");
        Token nameToken = cursor.peek();
        // A procedure is no relation: its schema is left to the call's lookup, as before.
        String procedure = cursor.relationName().name();
        cursor.expectSymbol("(");
        List<CallStatement.CallArgument> arguments = new ArrayList<>();
        if (!cursor.acceptSymbol(")")) {
            do {
                String argumentName = null;
                if (cursor.peek().isName() && (cursor.peek(1).isSymbol("=>") || cursor.peek(1).isSymbol(":="))) {
                    argumentName = cursor.name();
                    cursor.next();
                } else if (!arguments.isEmpty() && arguments.getLast().name() != null) {
                    throw new ParallaxException(SqlState.SYNTAX_ERROR,
                            "positional argument cannot follow named argument", null, null, cursor.peek().position(), null);
                }
                boolean string = cursor.peek().kind() == TokenKind.STRING;
                arguments.add(new CallStatement.CallArgument(argumentName, settingValue(cursor), string));
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        }
        cursor.expectEnd();
        return new CallStatement(procedure, arguments, nameToken.position());
    }

    // ---- COPY ----

    private static Statement parseCopy(TokenCursor cursor) {
        cursor.expect("copy");
        Token open = cursor.peek();
        String query = null;
        RelationName tableName = null;
        List<String> columns = new ArrayList<>();
        if (cursor.acceptSymbol("(")) {
            query = parenthesizedText(cursor, open);
        } else {
            tableName = cursor.relationName();
            if (cursor.acceptSymbol("(")) {
                do {
                    columns.add(cursor.name());
                } while (cursor.acceptSymbol(","));
                cursor.expectSymbol(")");
            }
        }
        Token direction = cursor.peek();
        boolean to = cursor.accept("to");
        if (!to) {
            if (query != null) {
                // PostgreSQL's grammar has COPY (query) only with TO.
                throw cursor.syntaxError(direction);
            }
            cursor.expect("from");
        }
        Token target = cursor.peek();
        String fileName;
        if (target.isKeyword(to ? "stdout" : "stdin")) {
            fileName = null;
        } else if (target.isKeyword("program")) {
            throw notSupported("COPY " + (to ? "TO" : "FROM") + " PROGRAM is not supported", target);
        } else if (target.kind() == TokenKind.STRING) {
            fileName = target.value();
        } else {
            throw cursor.syntaxError(target);
        }
        cursor.next();
        CopyOptionsParser options = new CopyOptionsParser(cursor);
        boolean with = cursor.accept("with");
        if (cursor.acceptSymbol("(")) {
            do {
                options.option(settingName(cursor));
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        } else {
            options.legacy(with);
        }
        cursor.expectEnd();
        return to ? new CopyToStatement(tableName, columns, query, fileName, options.build())
                : new CopyStatement(tableName, columns, fileName, options.build());
    }

    /** The text between the {@code (} just accepted (token {@code open}) and its matching {@code )}, which is consumed. */
    private static String parenthesizedText(TokenCursor cursor, Token open) {
        int depth = 1;
        while (true) {
            Token token = cursor.peek();
            if (token.kind() == TokenKind.END) {
                throw cursor.syntaxError(token);
            }
            cursor.next();
            if (token.isSymbol("(")) {
                depth++;
            } else if (token.isSymbol(")") && --depth == 0) {
                String text = cursor.sql().substring(open.end(), token.start()).strip();
                if (text.isEmpty()) {
                    throw cursor.syntaxError(token);
                }
                return text;
            }
        }
    }

    // ---- EXPLAIN ----

    private static Statement parseExplain(TokenCursor cursor) {
        cursor.expect("explain");
        boolean analyze = false;
        boolean verbose = false;
        boolean costs = true;
        Boolean timing = null;
        Boolean summary = null;
        if (cursor.peek().isSymbol("(")) {
            cursor.next();
            do {
                Token optionToken = cursor.peek();
                String option = cursor.name();
                Token valueToken = cursor.peek();
                String value = valueToken.isSymbol(",") || valueToken.isSymbol(")") ? null : settingValue(cursor);
                switch (option) {
                    case "analyze", "analyse" -> analyze = explainBoolean(option, value, valueToken);
                    case "verbose" -> verbose = explainBoolean(option, value, valueToken);
                    case "costs" -> costs = explainBoolean(option, value, valueToken);
                    case "timing" -> timing = explainBoolean(option, value, valueToken);
                    case "summary" -> summary = explainBoolean(option, value, valueToken);
                    // Accepted for compatibility; Parallax has no shared buffers, WAL or per-statement settings to show.
                    case "buffers", "wal", "settings", "memory", "generic_plan" -> explainBoolean(option, value, valueToken);
                    case "serialize" -> {
                    }
                    case "format" -> {
                        if (value == null || !value.equalsIgnoreCase("text")) {
                            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                                    "EXPLAIN format \"" + value + "\" is not supported", null, "Only FORMAT TEXT is available.",
                                    valueToken.position(), null);
                        }
                    }
                    default -> throw new ParallaxException(SqlState.SYNTAX_ERROR,
                            "unrecognized EXPLAIN option \"" + option + "\"", null, null, optionToken.position(), null);
                }
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        } else {
            analyze = cursor.accept("analyze") || cursor.accept("analyse");
            verbose = cursor.accept("verbose");
        }
        if (timing != null && timing && !analyze) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "EXPLAIN option TIMING requires ANALYZE");
        }
        Token queryStart = cursor.peek();
        if (cursor.atEnd()) {
            throw cursor.syntaxError(queryStart);
        }
        String query = cursor.sql().substring(queryStart.start());
        return new ExplainStatement(new ExplainOptions(analyze, verbose, costs, timing == null || timing,
                summary == null ? analyze : summary),
                query, queryStart.start());
    }

    private static boolean explainBoolean(String option, String value, Token valueToken) {
        if (value == null) {
            return true;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "on", "1", "yes" -> true;
            case "false", "off", "0", "no" -> false;
            default -> throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    option + " requires a Boolean value", null, null, valueToken.position(), null);
        };
    }

    // ---- transactions ----

    // ---- VACUUM and ANALYZE ----

    /**
     * PostgreSQL 15's two forms: the parenthesized option list, or the old keywords in their fixed
     * order {@code FULL FREEZE VERBOSE ANALYZE}. FREEZE, DISABLE_PAGE_SKIPPING, SKIP_LOCKED,
     * INDEX_CLEANUP, PROCESS_TOAST and TRUNCATE are accepted and change nothing: there are no
     * transaction ids to freeze, no TOAST, and VACUUM always cleans the indexes and truncates.
     */
    private static Statement parseVacuum(TokenCursor cursor) {
        cursor.expect("vacuum");
        boolean full = false;
        boolean verbose = false;
        boolean analyze = false;
        boolean disablePageSkipping = false;
        boolean processToast = true;
        int parallel = -1;
        if (cursor.peek().isSymbol("(")) {
            cursor.next();
            do {
                Token optionToken = cursor.peek();
                String option = cursor.name();
                Token valueToken = cursor.peek();
                boolean hasValue = !(valueToken.isSymbol(",") || valueToken.isSymbol(")"));
                switch (option) {
                    case "full" -> full = maintenanceBoolean(cursor, option, hasValue);
                    case "verbose" -> verbose = maintenanceBoolean(cursor, option, hasValue);
                    case "analyze", "analyse" -> analyze = maintenanceBoolean(cursor, option, hasValue);
                    case "disable_page_skipping" -> disablePageSkipping = maintenanceBoolean(cursor, option, hasValue);
                    case "process_toast" -> processToast = maintenanceBoolean(cursor, option, hasValue);
                    case "freeze", "skip_locked", "truncate" -> maintenanceBoolean(cursor, option, hasValue);
                    case "index_cleanup" -> {
                        if (hasValue && !cursor.peek().isKeyword("auto")) {
                            maintenanceBoolean(cursor, option, true);
                        } else if (hasValue) {
                            cursor.next();
                        }
                    }
                    case "parallel" -> parallel = parallelOption(cursor, optionToken, hasValue);
                    default -> throw new ParallaxException(SqlState.SYNTAX_ERROR,
                            "unrecognized VACUUM option \"" + option + "\"", null, null, optionToken.position(), null);
                }
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        } else {
            full = cursor.accept("full");
            cursor.accept("freeze");
            verbose = cursor.accept("verbose");
            analyze = cursor.accept("analyze") || cursor.accept("analyse");
        }
        if (full && parallel > 0) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "VACUUM FULL cannot be performed in parallel");
        }
        List<VacuumStatement.VacuumTarget> targets = maintenanceTargets(cursor);
        if (!analyze) {
            for (VacuumStatement.VacuumTarget target : targets) {
                if (!target.columnNames().isEmpty()) {
                    throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                            "ANALYZE option must be specified when a column list is provided");
                }
            }
        }
        // PostgreSQL's vacuum() checks these after the two above, before it looks the tables up.
        if (full && disablePageSkipping) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "VACUUM option DISABLE_PAGE_SKIPPING cannot be used with FULL");
        }
        if (full && !processToast) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "PROCESS_TOAST required with VACUUM FULL");
        }
        return new VacuumStatement(true, full, verbose, analyze, parallel, targets);
    }

    /** {@code ANALYZE [VERBOSE] [table ...]} or {@code ANALYZE (VERBOSE [b], SKIP_LOCKED [b]) [table ...]}. */
    private static Statement parseAnalyze(TokenCursor cursor) {
        cursor.next();
        boolean verbose = false;
        if (cursor.peek().isSymbol("(")) {
            cursor.next();
            do {
                Token optionToken = cursor.peek();
                String option = cursor.name();
                Token valueToken = cursor.peek();
                boolean hasValue = !(valueToken.isSymbol(",") || valueToken.isSymbol(")"));
                switch (option) {
                    case "verbose" -> verbose = maintenanceBoolean(cursor, option, hasValue);
                    case "skip_locked" -> maintenanceBoolean(cursor, option, hasValue);
                    default -> throw new ParallaxException(SqlState.SYNTAX_ERROR,
                            "unrecognized ANALYZE option \"" + option + "\"", null, null, optionToken.position(), null);
                }
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        } else {
            verbose = cursor.accept("verbose");
        }
        return new VacuumStatement(false, false, verbose, true, -1, maintenanceTargets(cursor));
    }

    /** {@code [table [(column, ...)] [, ...]]} up to the end of the statement. */
    private static List<VacuumStatement.VacuumTarget> maintenanceTargets(TokenCursor cursor) {
        List<VacuumStatement.VacuumTarget> targets = new ArrayList<>();
        if (!cursor.atEnd()) {
            do {
                Token start = cursor.peek();
                // Keywords PostgreSQL does not accept as a bare table name here (VERBOSE after ANALYZE is out of order).
                if (start.kind() == TokenKind.IDENTIFIER && Set.of("full", "freeze", "verbose", "analyze", "analyse").contains(start.value())) {
                    throw cursor.syntaxError(start);
                }
                RelationName table = cursor.relationName();
                List<String> columns = new ArrayList<>();
                if (cursor.acceptSymbol("(")) {
                    do {
                        columns.add(cursor.name());
                    } while (cursor.acceptSymbol(","));
                    cursor.expectSymbol(")");
                }
                targets.add(new VacuumStatement.VacuumTarget(table, columns, start.position()));
            } while (cursor.acceptSymbol(","));
        }
        cursor.expectEnd();
        return targets;
    }

    /** A Boolean option value as PostgreSQL's defGetBoolean reads it; no value means true. */
    private static boolean maintenanceBoolean(TokenCursor cursor, String option, boolean hasValue) {
        if (!hasValue) {
            return true;
        }
        Token token = cursor.next();
        String value = token.value().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "true", "on", "yes", "1" -> true;
            case "false", "off", "no", "0" -> false;
            default -> throw new ParallaxException(SqlState.SYNTAX_ERROR, option + " requires a Boolean value");
        };
    }

    /** PARALLEL n: 0 .. 1024 workers, PostgreSQL's messages otherwise. */
    private static int parallelOption(TokenCursor cursor, Token optionToken, boolean hasValue) {
        if (!hasValue) {
            throw new ParallaxException(SqlState.SYNTAX_ERROR, "parallel option requires a value between 0 and 1024",
                    null, null, optionToken.position(), null);
        }
        boolean negative = cursor.acceptSymbol("-");
        Token number = cursor.next();
        long value;
        try {
            value = Long.parseLong(number.value());
        } catch (NumberFormatException notInteger) {
            throw new ParallaxException(SqlState.SYNTAX_ERROR, "parallel requires an integer value");
        }
        if (negative) {
            value = -value;
        }
        if (value < 0 || value > 1024) {
            throw new ParallaxException(SqlState.SYNTAX_ERROR, "parallel workers for vacuum must be between 0 and 1024",
                    null, null, optionToken.position(), null);
        }
        return (int) value;
    }

    /** {@code TRUNCATE [TABLE] [ONLY] name [*] [, ...] [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]}. */
    private static Statement parseTruncate(TokenCursor cursor) {
        cursor.expect("truncate");
        cursor.accept("table");
        List<TruncateStatement.Target> targets = new ArrayList<>();
        do {
            boolean only = cursor.accept("only");
            RelationName name;
            if (only && cursor.acceptSymbol("(")) {
                // PostgreSQL's relation_expr also takes ONLY (name).
                name = cursor.relationName();
                cursor.expectSymbol(")");
            } else {
                name = cursor.relationName();
            }
            // name * asks for the partitions too, as without ONLY (PostgreSQL's inheritance syntax).
            if (!only) {
                cursor.acceptSymbol("*");
            }
            targets.add(new TruncateStatement.Target(name, only));
        } while (cursor.acceptSymbol(","));
        boolean restartIdentity = false;
        if (cursor.accept("restart")) {
            cursor.expect("identity");
            restartIdentity = true;
        } else if (cursor.accept("continue")) {
            cursor.expect("identity");
        }
        boolean cascade = cursor.accept("cascade");
        if (!cascade) {
            cursor.accept("restrict");
        }
        cursor.expectEnd();
        return new TruncateStatement(targets, restartIdentity, cascade);
    }

    private static Statement parseTransaction(TokenCursor cursor, TransactionStatement.Kind kind) {
        Token first = cursor.next();
        if (first.isKeyword("start")) {
            cursor.expect("transaction");
            return new TransactionStatement(TransactionStatement.Kind.START);
        } else if (!cursor.accept("work")) {
            cursor.accept("transaction");
        }
        if (kind != TransactionStatement.Kind.BEGIN) {
            cursor.expectEnd();
        }
        return new TransactionStatement(kind);
    }
}
