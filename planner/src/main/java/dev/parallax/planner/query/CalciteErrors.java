package dev.parallax.planner.query;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.parse.RewrittenStatement;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Calcite's parse and validation errors in PostgreSQL's words and SQLSTATEs, positions in the original text. */
final class CalciteErrors {
    private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(.*?)\" at line (\\d+), column (\\d+)", Pattern.DOTALL);
    /** A relation, with the schema it was looked for in when it was written qualified ({@code public.x}). */
    private static final Pattern OBJECT_NOT_FOUND = Pattern.compile("(?:Object|Table) '([^']*)' not found(?: within '([^'.]*)')?");
    private static final Pattern COLUMN_NOT_FOUND_IN_TABLE = Pattern.compile("Column '([^']*)' not found in table '([^']*)'");
    private static final Pattern COLUMN_NOT_FOUND = Pattern.compile("Column '([^']*)' not found");
    private static final Pattern AMBIGUOUS = Pattern.compile("Column '([^']*)' is ambiguous");
    private static final Pattern DUPLICATE_RELATION = Pattern.compile("Duplicate relation name '([^']*)' in FROM clause");
    private static final Pattern NOT_GROUPED = Pattern.compile("Expression '([^']*)' is not being grouped");
    private static final Pattern CANNOT_APPLY = Pattern.compile("Cannot apply '([^']*)' to arguments of type '(.*)'\\. Supported");
    private static final Pattern BINARY_ARGUMENTS = Pattern.compile("<(.+?)> (\\S+) <(.+?)>");
    private static final Pattern FUNCTION_ARGUMENTS = Pattern.compile("[^(<]+\\((.*)\\)");
    /** PostgreSQL's hint when no function has the name and argument types. */
    private static final String NO_FUNCTION_HINT = "No function matches the given name and argument types. You might need to add explicit type casts.";
    /** PostgreSQL's hint when no operator has the name and argument types. */
    private static final String NO_OPERATOR_HINT = "No operator matches the given name and argument types. You might need to add explicit type casts.";
    private static final Pattern NO_FUNCTION = Pattern.compile("No match found for function signature ([^(]+)\\((.*)\\)");
    private static final Pattern CANNOT_CAST = Pattern.compile("Cast function cannot convert value of type (.+) to type (.+)");
    private static final Pattern CANNOT_ASSIGN = Pattern.compile("Cannot assign to target field '([^']*)' of type (.+) from source field '[^']*' of type (.+)");

    private CalciteErrors() {
    }

    static ParallaxException fromParse(SqlParseException exception, RewrittenStatement statement) {
        Matcher matcher = ENCOUNTERED.matcher(exception.getMessage());
        if (matcher.find()) {
            String token = matcher.group(1);
            int position = statement.originalPosition(Integer.parseInt(matcher.group(2)), Integer.parseInt(matcher.group(3)));
            if (token.equals("<EOF>")) {
                return new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at end of input", null, null,
                        statement.originalPositions().length + 1, exception);
            }
            // Calcite's token image escapes quotes and backslashes; PostgreSQL quotes the token as written ("b" -> ""b"").
            String written = token.replace("\\\"", "\"").replace("\\\\", "\\");
            return new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + written + "\"", null, null, position, exception);
        }
        int position = exception.getPos() == null ? 0
                : statement.originalPosition(exception.getPos().getLineNum(), exception.getPos().getColumnNum());
        if (exception.getMessage() != null && exception.getMessage().contains("Non-query expression encountered in illegal context")
                && exception.getPos() != null) {
            // A statement that starts with no keyword ("selec 1"): PostgreSQL blames its first word.
            String word = blamedWord(statement, exception.getPos().getLineNum(), exception.getPos().getColumnNum());
            return new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + word + "\"", null, null, position, exception);
        }
        return new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error: " + firstLine(exception.getMessage()), null, null, position, exception);
    }

    /** The identifier (or single character) at a 1-based line and column of {@code sql}. */
    /**
     * The word a statement that starts with no keyword is blamed on: {@link #wordAt}, except that a
     * word the dialect rewrite quoted for Calcite ({@code truncate} -> {@code "truncate"}: its quotes
     * are generated text, mapped to the word's own position) is given as written, without them,
     * while a quoted identifier the user wrote keeps its quotes, as PostgreSQL prints the token.
     */
    private static String blamedWord(RewrittenStatement statement, int line, int column) {
        String sql = statement.sql();
        int start = offsetOf(sql, line, column);
        if (start >= sql.length() || sql.charAt(start) != '"') {
            return wordAt(sql, line, column);
        }
        int end = start + 1;
        while (end < sql.length()) {
            if (sql.charAt(end) == '"') {
                if (end + 1 < sql.length() && sql.charAt(end + 1) == '"') {
                    end += 2;
                    continue;
                }
                break;
            }
            end++;
        }
        int[] positions = statement.originalPositions();
        boolean generatedQuotes = start + 1 < positions.length && positions[start] == positions[start + 1];
        if (generatedQuotes) {
            return sql.substring(start + 1, Math.min(end, sql.length()));
        }
        return sql.substring(start, Math.min(end + 1, sql.length()));
    }

    /** The 0-based offset in {@code sql} of 1-based {@code line} and {@code column}. */
    private static int offsetOf(String sql, int line, int column) {
        int offset = 0;
        for (int currentLine = 1; currentLine < line && offset < sql.length(); offset++) {
            if (sql.charAt(offset) == '\n') {
                currentLine++;
            }
        }
        return Math.max(0, offset + column - 1);
    }

    static String wordAt(String sql, int line, int column) {
        int start = Math.min(offsetOf(sql, line, column), Math.max(0, sql.length() - 1));
        int end = start;
        while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
            end++;
        }
        return sql.substring(start, Math.max(end, Math.min(start + 1, sql.length())));
    }

    /** A set-returning call where PostgreSQL allows none: 0A000 with PostgreSQL's message and hint, at the call. */
    static ParallaxException fromMisplaced(dev.parallax.planner.query.validate.SetReturningCalls.Misplaced misplaced,
                                           RewrittenStatement statement) {
        int position = misplaced.position().getLineNum() > 0
                ? statement.originalPosition(misplaced.position().getLineNum(), misplaced.position().getColumnNum()) : 0;
        return new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, misplaced.getMessage(), null, misplaced.hint(), position, misplaced);
    }

    static ParallaxException fromValidation(CalciteContextException exception, RewrittenStatement statement) {
        String message = exception.getCause() != null && exception.getCause().getMessage() != null
                ? exception.getCause().getMessage() : exception.getMessage();
        int position = exception.getPosLine() > 0 ? statement.originalPosition(exception.getPosLine(), exception.getPosColumn()) : 0;
        if (exception.getCause() instanceof ParallaxException postgres) {
            // A check of our own validator that already speaks PostgreSQL: only its position is Calcite's.
            return new ParallaxException(postgres.state(), postgres.getMessage(), postgres.detail(), postgres.hint(), position, exception);
        }
        Matcher matcher;
        if ((matcher = OBJECT_NOT_FOUND.matcher(message)).find()) {
            // PostgreSQL names a qualified relation as written: relation "public.x" does not exist.
            String name = matcher.group(2) == null ? matcher.group(1) : matcher.group(2) + "." + matcher.group(1);
            return error(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist", position, exception);
        }
        if ((matcher = COLUMN_NOT_FOUND_IN_TABLE.matcher(message)).find()) {
            // A qualified reference: PostgreSQL names it as written, t.x.
            return error(SqlState.UNDEFINED_COLUMN, "column " + matcher.group(2) + "." + matcher.group(1) + " does not exist", position, exception);
        }
        if ((matcher = COLUMN_NOT_FOUND.matcher(message)).find()) {
            return error(SqlState.UNDEFINED_COLUMN, "column \"" + matcher.group(1) + "\" does not exist", position, exception);
        }
        if ((matcher = AMBIGUOUS.matcher(message)).find()) {
            return error(SqlState.AMBIGUOUS_COLUMN, "column reference \"" + matcher.group(1) + "\" is ambiguous", position, exception);
        }
        if ((matcher = DUPLICATE_RELATION.matcher(message)).find()) {
            return error(SqlState.DUPLICATE_ALIAS, "table name \"" + matcher.group(1) + "\" specified more than once", position, exception);
        }
        if ((matcher = NOT_GROUPED.matcher(message)).find()) {
            return error(SqlState.GROUPING_ERROR, "column \"" + matcher.group(1)
                    + "\" must appear in the GROUP BY clause or be used in an aggregate function", position, exception);
        }
        if ((matcher = CANNOT_APPLY.matcher(message)).find()) {
            Matcher arguments = BINARY_ARGUMENTS.matcher(matcher.group(2));
            if (arguments.matches()) {
                return new ParallaxException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: " + postgresType(arguments.group(1)) + " "
                        + arguments.group(2) + " " + postgresType(arguments.group(3)), null, NO_OPERATOR_HINT, position, exception);
            }
            // A function's argument types come as NAME(<type>, <type>): only the types inside are named.
            Matcher call = FUNCTION_ARGUMENTS.matcher(matcher.group(2));
            return new ParallaxException(SqlState.UNDEFINED_FUNCTION, "function " + matcher.group(1).toLowerCase(Locale.ROOT) + "("
                    + postgresTypes(call.matches() ? call.group(1) : matcher.group(2)) + ") does not exist", null, NO_FUNCTION_HINT, position, exception);
        }
        if ((matcher = NO_FUNCTION.matcher(message)).find()) {
            return new ParallaxException(SqlState.UNDEFINED_FUNCTION, "function " + matcher.group(1).toLowerCase(Locale.ROOT) + "("
                    + postgresTypes(matcher.group(2)) + ") does not exist", null, NO_FUNCTION_HINT, position, exception);
        }
        if ((matcher = CANNOT_ASSIGN.matcher(message)).find()) {
            return error(SqlState.DATATYPE_MISMATCH, "column \"" + matcher.group(1) + "\" is of type " + postgresType(matcher.group(2))
                    + " but expression is of type " + postgresType(matcher.group(3)), position, exception);
        }
        if ((matcher = CANNOT_CAST.matcher(message)).find()) {
            return error(SqlState.CANNOT_COERCE, "cannot cast type " + postgresType(matcher.group(1)) + " to " + postgresType(matcher.group(2)),
                    position, exception);
        }
        if (message.contains("Illegal use of dynamic parameter")) {
            return error(SqlState.SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION, "could not determine data type of parameter", position, exception);
        }
        if (message.contains("Aggregate expression is illegal in WHERE")) {
            return error(SqlState.GROUPING_ERROR, "aggregate functions are not allowed in WHERE", position, exception);
        }
        if (message.contains("Argument to GROUPING operator must be a grouped expression")
                || message.contains("GROUPING operator may only occur in an aggregate query")) {
            return error(SqlState.GROUPING_ERROR, "arguments to GROUPING must be grouping expressions of the associated query level",
                    position, exception);
        }
        if (message.contains("GROUPING operator may only occur in SELECT, HAVING or ORDER BY clause")) {
            // Calcite does not say which clause; PostgreSQL names it (grouping operations are not allowed in WHERE).
            return error(SqlState.GROUPING_ERROR, "grouping operations are not allowed here", position, exception);
        }
        if (message.contains("Aggregate expressions cannot be nested")) {
            return error(SqlState.GROUPING_ERROR, "aggregate function calls cannot be nested", position, exception);
        }
        if (message.contains("Argument to function 'NTILE' must be a positive integer literal")) {
            return error(SqlState.INVALID_ARGUMENT_FOR_NTILE, "argument of ntile must be greater than zero", position, exception);
        }
        if (message.contains("Argument to function 'NTILE' must be a literal") || message.contains("Argument to function 'NTILE' must not be NULL")) {
            // Calcite's ntile takes a number of buckets written as a positive integer; PostgreSQL any integer expression.
            return error(SqlState.FEATURE_NOT_SUPPORTED, "ntile of an expression or NULL is not supported yet: only a number of buckets written as a constant is",
                    position, exception);
        }
        if (message.contains("Number of INSERT target columns")) {
            return error(SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns", position, exception);
        }
        return error(SqlState.SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION, firstLine(message), position, exception);
    }

    private static ParallaxException error(SqlState state, String message, int position, Throwable cause) {
        return new ParallaxException(state, message, null, null, position, cause);
    }

    private static String postgresTypes(String calciteTypes) {
        if (calciteTypes.isBlank()) {
            return "";
        }
        StringBuilder result = new StringBuilder();
        for (String part : calciteTypes.split(",\\s*(?![^(]*\\))")) {
            if (!result.isEmpty()) {
                result.append(", ");
            }
            result.append(postgresType(part.replace("<", "").replace(">", "").trim()));
        }
        return result.toString();
    }

    /** A Calcite type or family name as PostgreSQL spells the type. */
    static String postgresType(String calciteType) {
        String upper = calciteType.trim().toUpperCase(Locale.ROOT).replace(" NOT NULL", "");
        if (upper.endsWith(" ARRAY")) {
            return postgresType(upper.substring(0, upper.length() - " ARRAY".length())) + "[]";
        }
        String base = upper.replaceAll("\\(.*", "");
        String modifier = upper.contains("(") ? upper.substring(upper.indexOf('(')).replace(" ", "") : "";
        return switch (base) {
            case "INTEGER", "INT" -> "integer";
            case "BIGINT" -> "bigint";
            case "SMALLINT", "TINYINT" -> "smallint";
            case "DECIMAL", "NUMERIC" -> "numeric";
            case "DOUBLE", "FLOAT", "APPROXIMATE_NUMERIC" -> "double precision";
            case "REAL" -> "real";
            case "BOOLEAN" -> "boolean";
            case "DATE" -> "date";
            case "TIMESTAMP", "TIMESTAMP(6)" -> "timestamp without time zone";
            case "TIMESTAMP_WITH_LOCAL_TIME_ZONE" -> "timestamp with time zone";
            case "CHAR" -> modifier.equals("(1)") || modifier.isEmpty() ? "text" : "text";
            case "VARCHAR", "CHARACTER", "STRING" -> "text";
            case "BINARY" -> "bit";
            case "VARBINARY" -> "bit varying";
            case "NULL" -> "unknown";
            default -> base.startsWith("INTERVAL") ? "interval" : base.toLowerCase(Locale.ROOT);
        };
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
