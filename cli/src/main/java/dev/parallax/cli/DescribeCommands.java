package dev.parallax.cli;

import dev.parallax.Database;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.type.PostgresType;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.PartitionedConstraint;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.catalog.View;
import dev.parallax.engine.expr.eval.SizePrettyEvaluator;
import dev.parallax.engine.catalog.RelationComment;
import dev.parallax.engine.index.OrderedIndex;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The catalog commands of the shell, laid out as psql 15 prints them: {@code \d} and {@code \dt}
 * ({@code List of relations}, {@code +} adds persistence, access method, size and description),
 * {@code \d NAME} (the columns of one table, its reloptions as an {@code Options:} footer),
 * {@code \l} and {@code \conninfo}. Every relation lives in schema {@code public}; the engine has no
 * roles, so the owner is always {@value #OWNER}.
 */
final class DescribeCommands {
    static final String OWNER = "parallax";
    /** Parallax's one index kind: an ordered list of row ids (psql would print btree). */
    static final String ACCESS_METHOD = "ordered";
    /** The access method of the indexes behind PRIMARY KEY and UNIQUE constraints (an off-heap hash map). */
    static final String UNIQUE_ACCESS_METHOD = "hash";
    static final String DATABASE_NAME = "memory";

    /**
     * What a command prints: a table ({@code title}, {@code columns}, {@code rows} and
     * {@code footers}, null for the row-count footer), or only a {@code message} for standard
     * output, or a {@code notFound} message for standard error.
     */
    record Output(String title, List<String> columns, List<String[]> rows, List<String> footers,
                  String message, String notFound) {
        static Output table(String title, List<String> columns, List<String[]> rows, List<String> footers) {
            return new Output(title, columns, rows, footers, null, null);
        }

        static Output message(String message) {
            return new Output(null, null, null, null, message, null);
        }

        static Output notFound(String message) {
            return new Output(null, null, null, null, null, message);
        }
    }

    /** A command used wrongly (psql prints these as errors and the command fails). */
    static final class DescribeException extends Exception {
        DescribeException(String message) {
            super(message);
        }
    }

    private final Database database;
    /** The catalog as the shell's session sees it: its temporary tables (schema pg_temp_N) too. */
    private final Catalog catalog;

    DescribeCommands(Database database, Catalog catalog) {
        this.database = database;
        this.catalog = catalog;
    }

    /** The schema {@code table} is in: the session's temporary one, else public. */
    private String schemaOf(Table table) {
        return catalog instanceof SessionCatalog session && session.isTemporary(table) ? session.temporarySchemaName() : "public";
    }

    /** psql's Persistence column of \d+. */
    private String persistenceOf(Table table) {
        return catalog.isTemporary(table) ? "temporary" : "permanent";
    }

    Output run(MetaCommand command) throws DescribeException {
        String pattern = command.arguments().isEmpty() ? null : command.arguments().getFirst();
        return switch (command.name()) {
            case "d", "d+" -> pattern == null ? listRelations(null, command.name().endsWith("+"), true)
                    : describeTables(pattern, command.name().endsWith("+"));
            case "dt", "dt+" -> listRelations(pattern, command.name().endsWith("+"), false);
            case "dv", "dv+" -> listViews(pattern, command.name().endsWith("+"));
            case "di", "di+" -> listIndexes(pattern, command.name().endsWith("+"));
            case "l", "l+", "list" -> listDatabases();
            case "conninfo" -> Output.message("You are connected to an in-memory Parallax database (\""
                    + databaseName() + "\") in this process.\n");
            default -> throw new DescribeException("invalid command \\" + command.name());
        };
    }

    private String databaseName() {
        return database.name().isEmpty() ? DATABASE_NAME : database.name();
    }

    private Output listRelations(String pattern, boolean verbose, boolean withViews) {
        List<String[]> rows = new ArrayList<>();
        for (Table table : matching(pattern)) {
            if (verbose) {
                // psql shows a partitioned table's own size: it holds no rows (its partitions are listed themselves).
                rows.add(new String[] {schemaOf(table), table.name(), relationType(table), OWNER, persistenceOf(table), "columnar",
                        SizePrettyEvaluator.text(table.isPartitioned() ? 0 : table.storage().sizeBytes()), description(table.name(), null)});
            } else {
                rows.add(new String[] {schemaOf(table), table.name(), relationType(table), OWNER});
            }
        }
        if (withViews) {
            for (View view : matchingViews(pattern)) {
                rows.add(verbose ? new String[] {"public", view.name(), "view", OWNER, "permanent", "", "0 bytes", description(view.name(), null)}
                        : new String[] {"public", view.name(), "view", OWNER});
            }
        }
        // psql's order: by schema, then name.
        rows.sort((left, right) -> left[0].equals(right[0]) ? left[1].compareTo(right[1]) : left[0].compareTo(right[0]));
        if (rows.isEmpty()) {
            return Output.notFound(pattern == null ? "Did not find any relations."
                    : "Did not find any relation named \"" + pattern + "\".");
        }
        List<String> columns = verbose
                ? List.of("Schema", "Name", "Type", "Owner", "Persistence", "Access method", "Size", "Description")
                : List.of("Schema", "Name", "Type", "Owner");
        return Output.table("List of relations", columns, rows, null);
    }

    /** {@code \dv}: the user views, in psql's layout. */
    private Output listViews(String pattern, boolean verbose) {
        List<String[]> rows = new ArrayList<>();
        for (View view : matchingViews(pattern)) {
            rows.add(verbose ? new String[] {"public", view.name(), "view", OWNER, "permanent", "0 bytes", description(view.name(), null)}
                    : new String[] {"public", view.name(), "view", OWNER});
        }
        if (rows.isEmpty()) {
            return Output.notFound(pattern == null ? "Did not find any relations." : "Did not find any relation named \"" + pattern + "\".");
        }
        List<String> columns = verbose ? List.of("Schema", "Name", "Type", "Owner", "Persistence", "Size", "Description")
                : List.of("Schema", "Name", "Type", "Owner");
        return Output.table("List of relations", columns, rows, null);
    }

    /** The comment COMMENT ON gave relation {@code name} (its column {@code column}; null for the relation), or none. */
    private String description(String name, String column) {
        long oid = catalog.relationOid(name);
        for (RelationComment comment : catalog.comments()) {
            if (comment.relationOid() == oid && java.util.Objects.equals(comment.columnName(), column)) {
                return comment.text();
            }
        }
        return "";
    }

    private static String relationType(Table table) {
        return table.isPartitioned() ? "partitioned table" : "table";
    }

    /**
     * {@code \d NAME}: one block per matching table (psql prints them one after another). A
     * partition names its parent and bound; a partitioned table its key and, with {@code +}, its
     * partitions (else their number).
     */
    private Output describeTables(String pattern, boolean verbose) {
        List<Table> tables = matching(pattern);
        List<View> views = matchingViews(pattern);
        List<Table> systemViews = matchingSystemViews(pattern);
        if (tables.isEmpty() && views.isEmpty() && systemViews.isEmpty()) {
            return Output.notFound("Did not find any relation named \"" + pattern + "\".");
        }
        StringBuilder text = new StringBuilder();
        for (Table table : tables) {
            List<String[]> rows = new ArrayList<>();
            for (ColumnDefinition column : table.columns()) {
                rows.add(new String[] {column.name(), column.type().sqlName(), "",
                        column.notNull() ? "not null" : "", ""});
            }
            List<String> footers = new ArrayList<>();
            if (table.parent() != null) {
                footers.add("Partition of: " + table.parent().name() + " " + table.partitionBound().text());
            }
            if (table.isPartitioned()) {
                footers.add("Partition key: HASH " + keyList(table, table.partitionKey().columns()));
            }
            footers.addAll(indexFooter(table));
            footers.addAll(checkFooter(table));
            footers.addAll(foreignKeyFooter(table));
            if (!table.storageParameters().isEmpty()) {
                // psql: the reloptions joined with ", ".
                footers.add("Options: " + String.join(", ", table.storageParameters().entries()));
            }
            if (table.isPartitioned()) {
                footers.addAll(partitionFooter(table, verbose));
            }
            String title = (table.isPartitioned() ? "Partitioned table" : "Table") + " \"" + schemaOf(table) + "." + table.name() + "\"";
            text.append(TitledTable.format(title,
                    List.of("Column", "Type", "Collation", "Nullable", "Default"), rows, footers));
        }
        for (View view : views) {
            List<String[]> rows = new ArrayList<>();
            // The columns CREATE VIEW recorded, as pg_attribute lists them; \d+ adds psql's Storage and Description.
            for (ColumnDefinition column : view.columns()) {
                rows.add(verbose
                        ? new String[] {column.name(), column.type().sqlName(), "", "", "", PostgresType.of(column.type()).storageName(),
                                description(view.name(), column.name())}
                        : new String[] {column.name(), column.type().sqlName(), "", "", ""});
            }
            // psql shows the definition with \d+ only; Parallax keeps the query as written.
            List<String> footers = verbose ? List.of("View definition:", " " + view.query() + ";") : List.of();
            List<String> headers = verbose ? List.of("Column", "Type", "Collation", "Nullable", "Default", "Storage", "Description")
                    : List.of("Column", "Type", "Collation", "Nullable", "Default");
            text.append(TitledTable.format("View \"public." + view.name() + "\"", headers, rows, footers));
        }
        for (Table view : systemViews) {
            List<String[]> rows = new ArrayList<>();
            for (ColumnDefinition column : view.columns()) {
                rows.add(new String[] {column.name(), column.type().sqlName(), "", "", ""});
            }
            text.append(TitledTable.format("View \"pg_catalog." + view.name() + "\"",
                    List.of("Column", "Type", "Collation", "Nullable", "Default"), rows, List.of()));
        }
        return Output.message(text.toString());
    }

    /** The user views whose name matches psql's pattern (all for null). */
    private List<View> matchingViews(String pattern) {
        Pattern compiled = pattern == null ? null : namePattern(pattern);
        List<View> result = new ArrayList<>();
        for (View view : catalog.views()) {
            if (compiled == null || compiled.matcher(view.name()).matches()) {
                result.add(view);
            }
        }
        return result;
    }

    /**
     * The system views ({@code pg_class}, {@code pg_stat_user_tables}, ...) a pattern names: psql
     * finds pg_catalog's relations by name, as pg_catalog is on every search path, but lists them
     * without a pattern only with {@code \dS}.
     */
    private List<Table> matchingSystemViews(String pattern) {
        String name = pattern.toLowerCase(Locale.ROOT).startsWith("pg_catalog.") ? pattern.substring("pg_catalog.".length()) : pattern;
        Pattern compiled = namePattern(name);
        List<Table> result = new ArrayList<>();
        for (Table table : catalog.tables()) {
            if (table.isSystemView() && compiled.matcher(table.name()).matches()) {
                result.add(table);
            }
        }
        return result;
    }

    private Output listDatabases() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {databaseName(), OWNER, "UTF8", "C", "C", "", "libc", ""});
        return Output.table("List of databases", List.of("Name", "Owner", "Encoding", "Collate", "Ctype",
                "ICU Locale", "Locale Provider", "Access privileges"), rows, null);
    }

    /**
     * The tables whose name matches psql's pattern: {@code *} any text, {@code ?} one character,
     * an optional {@code public.} schema, case-folded unless double-quoted; all tables for null.
     */
    private List<Table> matching(String pattern) {
        // System views (pg_stat_progress) are not user relations: psql's \d lists no pg_catalog either.
        // A permanent table hidden by a temporary one of its name is not on the search path (public.NAME names it).
        boolean permanentOnly = pattern != null && pattern.toLowerCase(Locale.ROOT).startsWith("public.");
        List<Table> tables = catalog.tables().stream().filter(table -> !table.isSystemView())
                .filter(table -> permanentOnly ? !catalog.isTemporary(table) : catalog.findTable(table.name()) == table).toList();
        if (pattern == null) {
            return tables;
        }
        Pattern compiled = namePattern(pattern);
        List<Table> result = new ArrayList<>();
        for (Table table : tables) {
            if (compiled.matcher(table.name()).matches()) {
                result.add(table);
            }
        }
        return result;
    }

    /** psql's name pattern: {@code *} any text, {@code ?} one character, optional {@code public.}, case-folded unless quoted. */
    private static Pattern namePattern(String pattern) {
        String name = pattern;
        if (name.toLowerCase(Locale.ROOT).startsWith("public.")) {
            name = name.substring("public.".length());
        }
        StringBuilder regex = new StringBuilder();
        boolean quoted = false;
        for (int index = 0; index < name.length(); index++) {
            char character = name.charAt(index);
            if (character == '"') {
                quoted = !quoted;
            } else if (!quoted && character == '*') {
                regex.append(".*");
            } else if (!quoted && character == '?') {
                regex.append('.');
            } else {
                char folded = quoted ? character : Character.toLowerCase(character);
                regex.append(Pattern.quote(String.valueOf(folded)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    /** {@code \di[+] [PATTERN]}: the indexes of all tables, as psql lists them. */
    private Output listIndexes(String pattern, boolean verbose) {
        Pattern compiled = pattern == null ? null : namePattern(pattern);
        List<String[]> rows = new ArrayList<>();
        for (Table table : matching(null)) {
            for (OrderedIndex index : table.indexes()) {
                if (compiled != null && !compiled.matcher(index.name()).matches()) {
                    continue;
                }
                rows.add(verbose
                        ? new String[] {schemaOf(table), index.name(), "index", OWNER, table.name(), persistenceOf(table), ACCESS_METHOD,
                                SizePrettyEvaluator.text(index.sizeBytes()), ""}
                        : new String[] {schemaOf(table), index.name(), "index", OWNER, table.name()});
            }
            for (UniqueConstraint constraint : table.uniqueConstraints()) {
                if (compiled != null && !compiled.matcher(constraint.name()).matches()) {
                    continue;
                }
                rows.add(verbose
                        ? new String[] {schemaOf(table), constraint.name(), "index", OWNER, table.name(), persistenceOf(table),
                                constraint.indexOnly() ? "btree" : UNIQUE_ACCESS_METHOD,
                                SizePrettyEvaluator.text(constraint.index().reservedBytes()), ""}
                        : new String[] {schemaOf(table), constraint.name(), "index", OWNER, table.name()});
            }
        }
        if (rows.isEmpty()) {
            return Output.notFound(pattern == null ? "Did not find any relations."
                    : "Did not find any relation named \"" + pattern + "\".");
        }
        rows.sort(java.util.Comparator.comparing(row -> row[1]));
        List<String> columns = verbose
                ? List.of("Schema", "Name", "Type", "Owner", "Table", "Persistence", "Access method", "Size", "Description")
                : List.of("Schema", "Name", "Type", "Owner", "Table");
        return Output.table("List of relations", columns, rows, null);
    }

    /**
     * psql's {@code Indexes:} footer lines of {@code \d TABLE}, the primary key first and then by name
     * as psql orders them: {@code "t_pkey" PRIMARY KEY, hash (id)}, {@code "t_b_key" UNIQUE CONSTRAINT,
     * hash (b)}, {@code "name" ordered (a, b)}. The access method is the one Parallax really uses.
     */
    private static List<String> indexFooter(Table table) {
        record FooterLine(boolean primaryKey, String name, String text) {
        }
        List<FooterLine> entries = new ArrayList<>();
        // A unique index of CREATE UNIQUE INDEX as psql prints it ("u" UNIQUE, btree (a)), as pg_indexes shows it.
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            String kind = constraint.primaryKey() ? "PRIMARY KEY" : constraint.indexOnly() ? "UNIQUE" : "UNIQUE CONSTRAINT";
            entries.add(new FooterLine(constraint.primaryKey(), constraint.name(), "\"" + constraint.name() + "\" " + kind + ", "
                    + (constraint.indexOnly() ? "btree" : UNIQUE_ACCESS_METHOD) + " " + keyList(table, constraint.keyColumns())));
        }
        for (PartitionedConstraint constraint : table.partitionedConstraints()) {
            String kind = constraint.primaryKey() ? "PRIMARY KEY" : constraint.indexOnly() ? "UNIQUE" : "UNIQUE CONSTRAINT";
            entries.add(new FooterLine(constraint.primaryKey(), constraint.name(), "\"" + constraint.name() + "\" " + kind + ", "
                    + (constraint.indexOnly() ? "btree" : UNIQUE_ACCESS_METHOD) + " (" + String.join(", ", constraint.columnNames()) + ")"));
        }
        for (OrderedIndex index : table.indexes()) {
            entries.add(new FooterLine(false, index.name(),
                    "\"" + index.name() + "\" " + ACCESS_METHOD + " " + keyList(table, index.keyColumns(), index.descendingKeys())));
        }
        entries.sort(java.util.Comparator.comparing((FooterLine entry) -> !entry.primaryKey()).thenComparing(FooterLine::name));
        List<String> lines = new ArrayList<>();
        if (!entries.isEmpty()) {
            lines.add("Indexes:");
            for (FooterLine entry : entries) {
                lines.add("    " + entry.text());
            }
        }
        return lines;
    }

    /**
     * psql's {@code Check constraints:} footer lines of {@code \d TABLE}, by name: {@code "c_a_check"
     * CHECK (a > 0)} (a partition's inherited ones too, as PostgreSQL lists them).
     */
    private static List<String> checkFooter(Table table) {
        List<String> names = table.columns().stream().map(dev.parallax.engine.catalog.ColumnDefinition::name).toList();
        List<dev.parallax.engine.catalog.CheckConstraint> constraints = new ArrayList<>(table.checkConstraints());
        constraints.sort(java.util.Comparator.comparing(dev.parallax.engine.catalog.CheckConstraint::name));
        List<String> lines = new ArrayList<>();
        if (!constraints.isEmpty()) {
            lines.add("Check constraints:");
            for (dev.parallax.engine.catalog.CheckConstraint constraint : constraints) {
                lines.add("    \"" + constraint.name() + "\" " + constraint.prettyDefinition(names));
            }
        }
        return lines;
    }

    /**
     * psql's {@code Foreign-key constraints:} lines of {@code \d TABLE}, by name, and its
     * {@code Referenced by:} lines, by referencing table and name: {@code TABLE "c" CONSTRAINT
     * "c_pid_fkey" FOREIGN KEY (pid) REFERENCES p(id)}.
     */
    private static List<String> foreignKeyFooter(Table table) {
        List<String> lines = new ArrayList<>();
        List<dev.parallax.engine.catalog.ForeignKey> own = new ArrayList<>(table.foreignKeys());
        own.sort(java.util.Comparator.comparing(dev.parallax.engine.catalog.ForeignKey::name));
        if (!own.isEmpty()) {
            lines.add("Foreign-key constraints:");
            for (dev.parallax.engine.catalog.ForeignKey key : own) {
                lines.add("    \"" + key.name() + "\" " + key.definition());
            }
        }
        List<dev.parallax.engine.catalog.ForeignKey> incoming = new ArrayList<>(table.referencedBy());
        incoming.sort(java.util.Comparator.comparing((dev.parallax.engine.catalog.ForeignKey key) -> key.referencing().name())
                .thenComparing(dev.parallax.engine.catalog.ForeignKey::name));
        if (!incoming.isEmpty()) {
            lines.add("Referenced by:");
            for (dev.parallax.engine.catalog.ForeignKey key : incoming) {
                lines.add("    TABLE \"" + key.referencing().name() + "\" CONSTRAINT \"" + key.name() + "\" " + key.definition());
            }
        }
        return lines;
    }

    /**
     * psql's partition footer: {@code Number of partitions: N (Use \d+ to list them.)}, or with
     * {@code +} every partition and its bound by name, continuation lines aligned under the first.
     */
    private static List<String> partitionFooter(Table table, boolean verbose) {
        List<Table> partitions = new ArrayList<>(table.partitionRouter().partitions());
        if (!verbose) {
            return List.of("Number of partitions: " + partitions.size() + " (Use \\d+ to list them.)");
        }
        if (partitions.isEmpty()) {
            return List.of("Number of partitions: 0");
        }
        partitions.sort(java.util.Comparator.comparing(Table::name));
        List<String> lines = new ArrayList<>();
        for (int index = 0; index < partitions.size(); index++) {
            Table partition = partitions.get(index);
            String entry = partition.name() + " " + partition.partitionBound().text() + (index + 1 < partitions.size() ? "," : "");
            lines.add((index == 0 ? "Partitions: " : "            ") + entry);
        }
        return lines;
    }

    /** {@code (a, b)}: the names of the key columns. */
    private static String keyList(Table table, int[] keys) {
        return keyList(table, keys, new boolean[keys.length]);
    }

    /** {@code (a, b DESC)}: the names of the key columns, with DESC where an index declared it. */
    private static String keyList(Table table, int[] keys, boolean[] descending) {
        StringBuilder text = new StringBuilder("(");
        for (int key = 0; key < keys.length; key++) {
            text.append(key == 0 ? "" : ", ").append(table.columns().get(keys[key]).name()).append(descending[key] ? " DESC" : "");
        }
        return text.append(')').toString();
    }
}
