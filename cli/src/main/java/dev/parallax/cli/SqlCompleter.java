package dev.parallax.cli;

import dev.parallax.Database;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Tab completion for the shell: SQL keywords (in the case the word was typed in), table names and
 * column names read from the catalog at each completion, and backslash commands at the start.
 */
final class SqlCompleter implements Completer {
    private static final List<String> KEYWORDS = List.of(
            "select", "from", "where", "group", "by", "order", "having", "limit", "offset", "join",
            "inner", "left", "right", "full", "outer", "cross", "on", "using", "and", "or", "not",
            "null", "is", "in", "between", "like", "ilike", "case", "when", "then", "else", "end",
            "as", "distinct", "union", "intersect", "except", "all", "asc", "desc", "nulls",
            "first", "last", "insert", "into", "values", "update", "set", "delete", "create",
            "table", "drop", "alter", "if", "exists", "explain", "analyze", "verbose", "copy",
            "call", "show", "reset", "with", "recursive", "cast", "extract", "interval", "date",
            "timestamp", "integer", "bigint", "smallint", "numeric", "decimal", "real", "double",
            "precision", "text", "varchar", "char", "boolean", "true", "false", "count", "sum",
            "avg", "min", "max", "generate_series", "dbgen", "primary", "key", "default", "unique", "rename",
            "column", "to", "view", "truncate", "only", "restart", "continue", "identity", "cascade", "restrict");
    private static final List<String> META_COMMANDS = List.of(
            "\\?", "\\q", "\\timing", "\\x", "\\pset", "\\d", "\\dt", "\\dt+", "\\l", "\\i", "\\o",
            "\\echo", "\\set", "\\unset", "\\conninfo");

    private final Database database;

    SqlCompleter(Database database) {
        this.database = database;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        String word = line.word().substring(0, line.wordCursor());
        if (line.wordIndex() == 0 && word.startsWith("\\")) {
            for (String command : META_COMMANDS) {
                candidates.add(new Candidate(command, command, null, null, null, null, true));
            }
            return;
        }
        boolean upperCase = !word.isEmpty() && Character.isUpperCase(word.charAt(0));
        Set<String> names = new LinkedHashSet<>();
        for (Table table : database.catalog().tables()) {
            names.add(table.name());
            for (ColumnDefinition column : table.columns()) {
                names.add(column.name());
            }
        }
        for (String name : names) {
            candidates.add(new Candidate(name, name, null, null, null, null, true));
        }
        for (String keyword : KEYWORDS) {
            String text = upperCase ? keyword.toUpperCase(Locale.ROOT) : keyword;
            if (!names.contains(text)) {
                candidates.add(new Candidate(text, text, null, null, null, null, true));
            }
        }
    }
}
