package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.planner.statement.StatementSplitter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Runs SQL statements and backslash commands against one session the way psql runs a script:
 * results in the chosen format on {@code out}, command tags for statements without rows,
 * NOTICEs and errors on {@code err}, {@code Time: ...} after each statement while {@code \timing}
 * is on. The run stops at the first failed statement or meta-command (psql with
 * {@code ON_ERROR_STOP}); {@code \q} ends the current command or file, as in psql.
 * Used by one thread; the interactive shell feeds it the same way.
 */
public final class ScriptRunner {
    /** Appended to a buffer to learn whether it ends between statements: then it splits off alone. */
    private static final String END_PROBE = "\u0001";

    private final Session session;
    private final PrintOptions options;
    private final ResultPrinter printer;
    private final PrintStream out;
    private final PrintStream err;
    private boolean timing;

    public ScriptRunner(Session session, PrintOptions options, PrintStream out, PrintStream err) {
        this.session = Objects.requireNonNull(session, "session");
        this.options = Objects.requireNonNull(options, "options");
        this.printer = ResultPrinter.create(options);
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
    }

    /** Whether {@code \timing} is on. */
    public boolean timing() {
        return timing;
    }

    /**
     * Runs one {@code -c} argument: a backslash command when it starts with a backslash, otherwise
     * its statements in order. Returns false when one failed (its error is printed).
     */
    public boolean runCommand(String command) {
        if (command.stripLeading().startsWith("\\")) {
            return runMetaCommand(MetaCommand.parse(command), "") != Outcome.FAILED;
        }
        for (String statement : StatementSplitter.split(command)) {
            if (!runStatement(statement, "")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs a script read line by line: statements run as soon as their semicolon is read, a line
     * starting with a backslash between statements is a meta-command, and a last statement
     * without a semicolon runs at the end of input. {@code fileName} names the script in
     * messages ({@code parallax:name:line: ERROR:  ...}); null prints them without location, as
     * psql does for standard input. Returns false when a statement or command failed.
     */
    public boolean runScript(BufferedReader reader, String fileName) {
        StringBuilder pending = new StringBuilder();
        int lineNumber = 0;
        try {
            String line;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                String locus = locus(fileName, lineNumber);
                if (line.stripLeading().startsWith("\\") && StatementSplitter.isBlank(pending.toString())) {
                    pending.setLength(0);
                    Outcome outcome = runMetaCommand(MetaCommand.parse(line), locus);
                    if (outcome != Outcome.CONTINUE) {
                        return outcome == Outcome.QUIT;
                    }
                    continue;
                }
                pending.append(line).append('\n');
                // Only a line with a semicolon can end a statement: skip the split otherwise, so a
                // statement spread over many lines costs linear time.
                if (line.indexOf(';') >= 0 && !runCompleteStatements(pending, locus)) {
                    return false;
                }
            }
            for (String statement : StatementSplitter.split(pending.toString())) {
                if (!runStatement(statement, locus(fileName, lineNumber))) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the statements {@code pending} completes and keeps only an unfinished rest in it. */
    private boolean runCompleteStatements(StringBuilder pending, String locus) {
        List<String> pieces = StatementSplitter.split(pending.append(END_PROBE).toString());
        pending.setLength(pending.length() - END_PROBE.length());
        String last = pieces.getLast();
        boolean endsBetweenStatements = last.equals(END_PROBE);
        int complete = pieces.size() - 1;
        for (int index = 0; index < complete; index++) {
            if (!runStatement(pieces.get(index), locus)) {
                return false;
            }
        }
        pending.setLength(0);
        if (!endsBetweenStatements) {
            pending.append(last, 0, last.length() - END_PROBE.length());
        }
        return true;
    }

    private static String locus(String fileName, int lineNumber) {
        return fileName == null ? "" : "parallax:" + fileName + ":" + lineNumber + ": ";
    }

    /** Runs one SQL statement and prints its outcome; false when it failed. */
    boolean runStatement(String sql, String locus) {
        return runStatement(sql, locus, false);
    }

    /**
     * Runs one SQL statement; {@code setup} statements (the CLI's own, like {@code --tpch}) print
     * no command tag. Returns false when it failed (the error is printed).
     */
    boolean runStatement(String sql, String locus, boolean setup) {
        long start = System.nanoTime();
        boolean succeeded = true;
        Result result = null;
        int noticesPrinted = 0;
        try {
            result = session.execute(sql);
            noticesPrinted = printNotices(result, 0, locus);
            if (result.hasRows()) {
                printer.print(result, out);
            } else if (!options.quiet() && !setup) {
                println(result.commandTag());
            }
            printNotices(result, noticesPrinted, locus);
        } catch (RuntimeException error) {
            succeeded = false;
            if (result != null) {
                printNotices(result, noticesPrinted, locus);
            }
            out.flush();
            err.print(ErrorReport.format(error, sql, locus));
            err.flush();
        } finally {
            if (result != null) {
                result.close();
            }
        }
        if (timing) {
            println(Timing.format((System.nanoTime() - start) / 1_000_000.0));
        }
        return succeeded;
    }

    private int printNotices(Result result, int alreadyPrinted, String locus) {
        List<String> notices = result.notices();
        if (notices.size() > alreadyPrinted) {
            out.flush();
            for (int index = alreadyPrinted; index < notices.size(); index++) {
                err.print(locus + "NOTICE:  " + notices.get(index) + "\n");
            }
            err.flush();
        }
        return notices.size();
    }

    private enum Outcome { CONTINUE, QUIT, FAILED }

    private Outcome runMetaCommand(MetaCommand command, String locus) {
        switch (command.name()) {
            case "timing" -> {
                if (command.arguments().isEmpty()) {
                    timing = !timing;
                } else {
                    Boolean value = parseBoolean(command.arguments().getFirst());
                    if (value == null) {
                        metaError(locus, "unrecognized value \"" + command.arguments().getFirst()
                                + "\" for \"\\timing\": Boolean expected");
                        return Outcome.FAILED;
                    }
                    timing = value;
                }
                if (!options.quiet()) {
                    println(timing ? "Timing is on." : "Timing is off.");
                }
                return Outcome.CONTINUE;
            }
            case "echo" -> {
                List<String> arguments = command.arguments();
                boolean newline = arguments.isEmpty() || !arguments.getFirst().equals("-n");
                List<String> words = newline ? arguments : arguments.subList(1, arguments.size());
                out.print(String.join(" ", words));
                if (newline) {
                    out.print('\n');
                }
                return Outcome.CONTINUE;
            }
            case "q", "quit" -> {
                return Outcome.QUIT;
            }
            default -> {
                metaError(locus, "invalid command \\" + command.name());
                return Outcome.FAILED;
            }
        }
    }

    private void metaError(String locus, String message) {
        out.flush();
        err.print((locus.isEmpty() ? "" : locus + "error: ") + message + "\n");
        err.flush();
    }

    /** psql's boolean spellings, prefixes included ({@code t}, {@code of} is ambiguous); null when not one. */
    private static Boolean parseBoolean(String text) {
        String value = text.toLowerCase(Locale.ROOT);
        if (value.isEmpty()) {
            return null;
        }
        if ("true".startsWith(value) || "yes".startsWith(value) || value.equals("1")
                || (value.length() >= 2 && "on".startsWith(value))) {
            return Boolean.TRUE;
        }
        if ("false".startsWith(value) || "no".startsWith(value) || value.equals("0")
                || (value.length() >= 2 && "off".startsWith(value))) {
            return Boolean.FALSE;
        }
        return null;
    }

    private void println(String text) {
        out.print(text);
        out.print('\n');
    }
}
