package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.planner.result.TextRowsResult;
import dev.parallax.planner.statement.StatementSplitter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Runs SQL statements and backslash commands against one session the way psql runs a script:
 * results in the chosen format on {@code out}, command tags for statements without rows,
 * NOTICEs and errors on {@code err}, {@code Time: ...} after each statement while {@code \timing}
 * is on. A script goes on after a failed statement or meta-command unless {@code ON_ERROR_STOP}
 * is on, as psql's does; {@code \q} ends the current command or file, as in psql.
 * Used by one thread; the interactive shell feeds it the same way.
 */
public final class ScriptRunner {
    /** Appended to a buffer to learn whether it ends between statements: then it splits off alone. */
    private static final String END_PROBE = "\u0001";

    private final Session session;
    /**
     * Where COPY FROM STDIN reads its data: the script being run, else standard input (psql's
     * {@code -c} reads it there), else the interactive shell's prompt.
     */
    private CopyDataLines copyData = CopyDataLines.NONE;
    /** psql's own standard input ({@code \copy ... from pstdin}): the process's, or the shell's prompt. */
    private CopyDataLines standardInput = CopyDataLines.NONE;
    /** The script file being run, for {@code \ir}; null for standard input and {@code -c}. */
    private String currentFile;
    /** The key of psql's {@code \restrict} while backslash commands are restricted, else null. */
    private String restrictKey;
    private PrintOptions options;
    private ResultPrinter printer;
    private final PrintStream out;
    private final PrintStream err;
    private boolean timing;
    /** Where results and command tags go: {@code out}, or the file of {@code \o}. */
    private PrintStream resultOut;
    /** Where "Time: ..." goes: standard output, or the shell's page buffer that stands in for it. */
    private PrintStream timingOut;
    private final ShellVariables variables = new ShellVariables();
    /** Created on first use: catalog commands are rare, and fake sessions in tests have no database. */
    private DescribeCommands describe;
    private boolean interactive;
    private boolean quitRequested;
    private boolean pager = true;
    private boolean showProgress;
    /** The terminal's columns for {@code \x auto}; 0 without a terminal. */
    private IntSupplier terminalWidth = () -> 0;

    public ScriptRunner(Session session, PrintOptions options, PrintStream out, PrintStream err) {
        this.session = Objects.requireNonNull(session, "session");
        this.options = Objects.requireNonNull(options, "options");
        this.printer = ResultPrinter.create(options);
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        this.resultOut = out;
        this.timingOut = out;
    }

    /** Draws a progress bar on stderr for long statements; for interactive terminals only. */
    void showProgress(boolean show) {
        this.showProgress = show;
    }

    /** The current output settings ({@code \pset}, {@code \x} change them). */
    public PrintOptions options() {
        return options;
    }

    /** Replaces the output settings. */
    public void setOptions(PrintOptions newOptions) {
        this.options = Objects.requireNonNull(newOptions, "options");
        this.printer = ResultPrinter.create(newOptions, terminalWidth);
    }

    /** Where {@code \x auto} learns the terminal's width (the shell passes its terminal's). */
    void setTerminalWidth(IntSupplier width) {
        this.terminalWidth = Objects.requireNonNull(width, "width");
        this.printer = ResultPrinter.create(options, width);
    }

    /** Marks the run as an interactive shell: meta-command errors carry psql's {@code Try \? for help.} hint. */
    public void setInteractive(boolean interactive) {
        this.interactive = interactive;
    }

    /** Whether {@code \q} was given (the shell then ends). */
    public boolean quitRequested() {
        return quitRequested;
    }

    /**
     * The standard input: where COPY FROM STDIN reads its data outside a script ({@code -c}; the
     * prompt in the interactive shell) and {@code \copy ... from pstdin} always.
     */
    void setStandardInput(CopyDataLines lines) {
        this.standardInput = Objects.requireNonNull(lines, "lines");
        this.copyData = lines;
    }

    /** Whether {@code \pset pager} is on (the shell pipes tall results through a pager then). */
    public boolean pager() {
        return pager;
    }

    /** The {@code \set} variables. */
    public ShellVariables variables() {
        return variables;
    }

    /** Whether results go to standard output (no {@code \o} file is open). */
    public boolean resultsToStandardOutput() {
        return resultOut == out;
    }

    /**
     * Sends results and the {@code \timing} line to {@code buffer}, which stands in for standard
     * output (the shell pages it afterwards), so "Time:" follows its result as psql prints it.
     * {@link #endStandardOutputBuffer()} ends it.
     */
    void bufferStandardOutput(PrintStream buffer) {
        this.resultOut = Objects.requireNonNull(buffer, "buffer");
        this.timingOut = buffer;
    }

    void endStandardOutputBuffer() {
        this.resultOut = out;
        this.timingOut = out;
    }

    /** Closes a {@code \o} file if one is open; results go to standard output again. */
    public void closeResultFile() {
        if (resultOut != out) {
            resultOut.close();
            resultOut = out;
        }
    }

    /** Whether {@code \timing} is on. */
    public boolean timing() {
        return timing;
    }

    /**
     * Runs one {@code -c} argument: a backslash command when it starts with a backslash, otherwise
     * its statements in order up to the first that fails, as psql sends a {@code -c} string as one
     * query. Returns false when one failed (its error is printed).
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
     * Runs a script read line by line, as psql runs a file: statements run as soon as their
     * semicolon is read, a line starting with a backslash between statements is a meta-command, a
     * last statement without a semicolon runs at the end of input, and {@code COPY ... FROM STDIN}
     * reads its data from the lines that follow it, up to {@code \.}. A failed statement or command
     * prints its error and the script goes on, unless {@code ON_ERROR_STOP} is on.
     * {@code fileName} names the script in messages ({@code parallax:name:line: ERROR:  ...}); null
     * prints them without location, as psql does for standard input.
     *
     * @return false when {@code ON_ERROR_STOP} stopped the script at a failure (psql then exits 3)
     */
    public boolean runScript(BufferedReader reader, String fileName) {
        return runScript(reader, fileName, true);
    }

    /**
     * As {@link #runScript(BufferedReader, String)}; {@code copyDataInScript} false keeps COPY FROM
     * STDIN reading from the current source (the interactive shell feeds one input at a time).
     */
    boolean runScript(BufferedReader reader, String fileName, boolean copyDataInScript) {
        ScriptLines lines = new ScriptLines(reader);
        CopyDataLines previousCopyData = copyData;
        String previousFile = currentFile;
        if (copyDataInScript) {
            copyData = lines;
        }
        currentFile = fileName;
        try {
            return runLines(lines, fileName);
        } finally {
            copyData = previousCopyData;
            currentFile = previousFile;
        }
    }

    private boolean runLines(ScriptLines lines, String fileName) {
        Supplier<String> locus = () -> locus(fileName, lines.lineNumber());
        StringBuilder pending = new StringBuilder();
        String line;
        while ((line = lines.nextLine()) != null) {
            if (line.stripLeading().startsWith("\\") && StatementSplitter.isBlank(pending.toString())) {
                pending.setLength(0);
                Outcome outcome = runMetaCommand(MetaCommand.parse(line), locus.get());
                if (outcome == Outcome.QUIT) {
                    return true;
                }
                if (outcome == Outcome.FAILED && variables.onErrorStop()) {
                    return false;
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
            if (!runStatement(statement, locus, false) && variables.onErrorStop()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs the statements {@code pending} completes and keeps only an unfinished rest in it; false
     * when one failed with {@code ON_ERROR_STOP} on.
     */
    private boolean runCompleteStatements(StringBuilder pending, Supplier<String> locus) {
        List<String> pieces = StatementSplitter.split(pending.append(END_PROBE).toString());
        pending.setLength(pending.length() - END_PROBE.length());
        String last = pieces.getLast();
        boolean endsBetweenStatements = last.equals(END_PROBE);
        int complete = pieces.size() - 1;
        for (int index = 0; index < complete; index++) {
            if (!runStatement(pieces.get(index), locus, false) && variables.onErrorStop()) {
                return false;
            }
        }
        pending.setLength(0);
        if (!endsBetweenStatements) {
            pending.append(last, 0, last.length() - END_PROBE.length());
        }
        return true;
    }

    private static String locus(String fileName, long lineNumber) {
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
        return runStatement(sql, () -> locus, setup);
    }

    /**
     * As {@link #runStatement(String, String, boolean)}; the locus is taken when messages are
     * printed, after the statement ran: psql names the line its input has reached then, past the
     * data of a COPY FROM STDIN.
     */
    private boolean runStatement(String sql, Supplier<String> locusAfterRun, boolean setup) {
        if (!setup) {
            sql = variables.substitute(sql);
        }
        long start = System.nanoTime();
        boolean succeeded = true;
        Result result = null;
        int noticesPrinted = 0;
        String locus = "";
        ShellCopyChannel copy = new ShellCopyChannel(copyData, () -> resultOut);
        try (ProgressBar progress = showProgress ? ProgressBar.start(session, err) : null) {
            try {
                result = session.execute(sql, copy);
            } finally {
                // A COPY that failed before the end of its data leaves the rest unread: skip it, as
                // psql sends all of it before it learns the outcome.
                copy.skipRemainingData();
                locus = locusAfterRun.get();
            }
            if (progress != null) {
                progress.close();
            }
            noticesPrinted = printNotices(result, 0, locus);
            if (result.hasRows()) {
                printer.print(new SessionZoneResult(result, session), resultOut);
            } else if (!options.quiet() && !setup) {
                resultOut.print(result.commandTag());
                resultOut.print('\n');
            }
            resultOut.flush();
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
            timingOut.print(Timing.format((System.nanoTime() - start) / 1_000_000.0));
            timingOut.print('\n');
        }
        return succeeded;
    }

    private int printNotices(Result result, int alreadyPrinted, String locus) {
        List<dev.parallax.Notice> notices = result.messages();
        if (notices.size() > alreadyPrinted) {
            out.flush();
            for (int index = alreadyPrinted; index < notices.size(); index++) {
                dev.parallax.Notice notice = notices.get(index);
                err.print(locus + notice.severity() + ":  " + notice.message() + "\n");
                if (notice.detail() != null) {
                    err.print("DETAIL:  " + notice.detail() + "\n");
                }
            }
            err.flush();
        }
        return notices.size();
    }

    private enum Outcome { CONTINUE, QUIT, FAILED }

    private Outcome runMetaCommand(MetaCommand unsubstituted, String locus) {
        MetaCommand command = unsubstituted.name().equals("set") || unsubstituted.name().equals("unset")
                ? unsubstituted.withArguments(variables.substituteArguments(unsubstituted.arguments(), 1))
                : unsubstituted.withArguments(variables.substituteArguments(unsubstituted.arguments(), 0));
        if (restrictKey != null && !command.name().equals("unrestrict")) {
            metaError(locus, "backslash commands are restricted; only \\unrestrict is allowed");
            return Outcome.FAILED;
        }
        switch (command.name()) {
            case "timing" -> {
                if (command.arguments().isEmpty()) {
                    timing = !timing;
                } else {
                    Boolean value = ShellVariables.parseBoolean(command.arguments().getFirst());
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
                quitRequested = true;
                return Outcome.QUIT;
            }
            case "?" -> {
                out.print(MetaCommandHelp.TEXT);
                return Outcome.CONTINUE;
            }
            case "x" -> {
                return expanded(command, locus);
            }
            case "pset" -> {
                return pset(command, locus);
            }
            case "o", "out" -> {
                return outputFile(command, locus);
            }
            case "i", "include" -> {
                return include(command, locus, false);
            }
            case "ir", "include_relative" -> {
                return include(command, locus, true);
            }
            case "restrict" -> {
                return restrict(command, locus);
            }
            case "unrestrict" -> {
                return unrestrict(command, locus);
            }
            case "set" -> {
                return set(command, locus);
            }
            case "unset" -> {
                if (command.arguments().isEmpty()) {
                    metaError(locus, "\\unset: missing required argument");
                    return Outcome.FAILED;
                }
                variables.unset(command.arguments().getFirst());
                return Outcome.CONTINUE;
            }
            case "d", "d+", "dt", "dt+", "dv", "dv+", "di", "di+", "l", "l+", "list", "conninfo" -> {
                return describe(command, locus);
            }
            case "copy" -> {
                return copy(unsubstituted, locus);
            }
            default -> {
                metaError(locus, "invalid command \\" + command.name()
                        + (interactive ? "\nTry \\? for help." : ""));
                return Outcome.FAILED;
            }
        }
    }

    /**
     * {@code \copy table [(columns)] from 'file' [with] (options)}: psql reads the file on the client;
     * here client and server are one process, so it runs COPY FROM with the same arguments (an
     * unquoted file name is quoted). {@code from stdin} reads the data from the current input (the
     * script's next lines), {@code from pstdin} from standard input, as psql's.
     */
    private Outcome copy(MetaCommand command, String locus) {
        String text = command.rawArguments();
        // COPY (query) TO / table [(columns)] TO: client and server are one process, so the file is
        // written by COPY TO itself, and pstdout/stdout go to the shell's output.
        java.util.regex.Matcher to = java.util.regex.Pattern
                .compile("(?is)^\\s*(\\(.*\\)|[^\\s(]+\\s*(?:\\([^)]*\\))?)\\s*to\\s+('(?:[^']|'')*'|\\S+)(.*)$").matcher(text);
        if (to.matches()) {
            String file = to.group(2);
            String target = file.equalsIgnoreCase("stdout") || file.equalsIgnoreCase("pstdout") ? "STDOUT"
                    : file.startsWith("'") ? file : "'" + file.replace("'", "''") + "'";
            return runStatement("COPY " + to.group(1) + " TO " + target + to.group(3), locus, false)
                    ? Outcome.CONTINUE : Outcome.FAILED;
        }
        java.util.regex.Matcher from = java.util.regex.Pattern
                .compile("(?i)^(.*?\\s)from\\s+('(?:[^']|'')*'|\\S+)(.*)$", java.util.regex.Pattern.DOTALL).matcher(text);
        if (!from.matches()) {
            metaError(locus, "\\copy: parse error at end of line");
            return Outcome.FAILED;
        }
        String file = from.group(2);
        if (file.equalsIgnoreCase("stdin")) {
            return runStatement("COPY " + from.group(1) + "FROM STDIN" + from.group(3), locus, false)
                    ? Outcome.CONTINUE : Outcome.FAILED;
        }
        if (file.equalsIgnoreCase("pstdin")) {
            CopyDataLines current = copyData;
            copyData = standardInput;
            try {
                return runStatement("COPY " + from.group(1) + "FROM STDIN" + from.group(3), locus, false)
                        ? Outcome.CONTINUE : Outcome.FAILED;
            } finally {
                copyData = current;
            }
        }
        String quotedFile = file.startsWith("'") ? file : "'" + file.replace("'", "''") + "'";
        return runStatement("COPY " + from.group(1) + "FROM " + quotedFile + from.group(3), locus, false)
                ? Outcome.CONTINUE : Outcome.FAILED;
    }


    private Outcome expanded(MetaCommand command, String locus) {
        ExpandedMode mode;
        if (command.arguments().isEmpty()) {
            mode = options.expanded() == ExpandedMode.ON ? ExpandedMode.OFF : ExpandedMode.ON;
        } else if (command.arguments().getFirst().equalsIgnoreCase("auto")) {
            mode = ExpandedMode.AUTO;
        } else {
            Boolean value = ShellVariables.parseBoolean(command.arguments().getFirst());
            if (value == null) {
                metaError(locus, "\\x: unrecognized value \"" + command.arguments().getFirst()
                        + "\": Boolean expected");
                return Outcome.FAILED;
            }
            mode = value ? ExpandedMode.ON : ExpandedMode.OFF;
        }
        setOptions(options.withExpanded(mode));
        if (!options.quiet()) {
            println(switch (mode) {
                case ON -> "Expanded display is on.";
                case OFF -> "Expanded display is off.";
                case AUTO -> "Expanded display is used automatically.";
            });
        }
        return Outcome.CONTINUE;
    }

    private Outcome pset(MetaCommand command, String locus) {
        List<String> arguments = command.arguments();
        if (arguments.isEmpty()) {
            println("format   " + options.format().name().toLowerCase(Locale.ROOT));
            println("null     '" + (options.nullDisplay() == null ? "" : options.nullDisplay()) + "'");
            println("pager    " + (pager ? "1" : "0"));
            return Outcome.CONTINUE;
        }
        String name = arguments.getFirst();
        String value = arguments.size() > 1 ? arguments.get(1) : null;
        switch (name) {
            case "null" -> {
                if (value != null) {
                    setOptions(options.withNullDisplay(value));
                }
                if (!options.quiet()) {
                    println("Null display is \"" + (options.nullDisplay() == null ? "" : options.nullDisplay()) + "\".");
                }
            }
            case "format" -> {
                if (value != null) {
                    OutputFormat format = switch (value.toLowerCase(Locale.ROOT)) {
                        case "aligned" -> OutputFormat.ALIGNED;
                        case "unaligned" -> OutputFormat.UNALIGNED;
                        case "csv" -> OutputFormat.CSV;
                        default -> null;
                    };
                    if (format == null) {
                        metaError(locus, "\\pset: allowed formats are aligned, csv, unaligned");
                        return Outcome.FAILED;
                    }
                    setOptions(options.withFormat(format));
                }
                if (!options.quiet()) {
                    println("Output format is " + options.format().name().toLowerCase(Locale.ROOT) + ".");
                }
            }
            case "pager" -> {
                if (value == null) {
                    pager = !pager;
                } else {
                    Boolean on = ShellVariables.parseBoolean(value);
                    if (on == null) {
                        metaError(locus, "unrecognized value \"" + value + "\" for \"pager\": Boolean expected");
                        return Outcome.FAILED;
                    }
                    pager = on;
                }
                if (!options.quiet()) {
                    println(pager ? "Pager is used for long output." : "Pager usage is off.");
                }
            }
            case "expanded" -> {
                List<String> rest = value == null ? List.of() : List.of(value);
                return expanded(new MetaCommand("x", rest), locus);
            }
            default -> {
                metaError(locus, "\\pset: unknown option: " + name);
                return Outcome.FAILED;
            }
        }
        return Outcome.CONTINUE;
    }

    private Outcome outputFile(MetaCommand command, String locus) {
        closeResultFile();
        if (command.arguments().isEmpty()) {
            return Outcome.CONTINUE;
        }
        String path = command.arguments().getFirst();
        try {
            resultOut = new PrintStream(Files.newOutputStream(Path.of(path)), false, StandardCharsets.UTF_8);
            return Outcome.CONTINUE;
        } catch (IOException | InvalidPathException e) {
            metaError(locus, path + ": " + reason(e));
            return Outcome.FAILED;
        }
    }

    /**
     * {@code \i file}, or {@code \ir file} with a relative path taken from the directory of the
     * script being run. Fails only when the file cannot be read or {@code ON_ERROR_STOP} stopped it,
     * as psql's: failed statements inside are reported and the file goes on.
     */
    private Outcome include(MetaCommand command, String locus, boolean relative) {
        if (command.arguments().isEmpty()) {
            metaError(locus, "\\" + command.name() + ": missing required argument");
            return Outcome.FAILED;
        }
        String path = command.arguments().getFirst();
        try {
            Path file = Path.of(path);
            if (relative && currentFile != null && !file.isAbsolute()) {
                Path parent = Path.of(currentFile).getParent();
                if (parent != null) {
                    file = parent.resolve(file);
                    path = file.toString();
                }
            }
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                boolean completed = runScript(reader, path);
                if (quitRequested) {
                    return Outcome.QUIT;
                }
                return completed ? Outcome.CONTINUE : Outcome.FAILED;
            }
        } catch (IOException | InvalidPathException e) {
            metaError(locus, path + ": " + reason(e));
            return Outcome.FAILED;
        }
    }

    /**
     * psql's {@code \restrict key} (pg_dump writes it at the top of a plain dump): until
     * the matching unrestrict command, every other backslash command is refused, so data in the dump cannot
     * run shell commands.
     */
    private Outcome restrict(MetaCommand command, String locus) {
        if (command.arguments().isEmpty()) {
            metaError(locus, "\\restrict: missing required argument");
            return Outcome.FAILED;
        }
        warnExtraArguments(command, locus);
        restrictKey = command.arguments().getFirst();
        return Outcome.CONTINUE;
    }

    private Outcome unrestrict(MetaCommand command, String locus) {
        if (restrictKey == null) {
            metaError(locus, "\\unrestrict: not currently in restricted mode");
            return Outcome.FAILED;
        }
        if (command.arguments().isEmpty()) {
            metaError(locus, "\\unrestrict: missing required argument");
            return Outcome.FAILED;
        }
        warnExtraArguments(command, locus);
        if (!command.arguments().getFirst().equals(restrictKey)) {
            metaError(locus, "\\unrestrict: wrong key");
            return Outcome.FAILED;
        }
        restrictKey = null;
        return Outcome.CONTINUE;
    }

    private void warnExtraArguments(MetaCommand command, String locus) {
        for (String extra : command.arguments().subList(1, command.arguments().size())) {
            out.flush();
            err.print((locus.isEmpty() ? "" : locus + "warning: ") + "\\" + command.name()
                    + ": extra argument \"" + extra + "\" ignored\n");
            err.flush();
        }
    }

    private static String reason(Exception error) {
        return error instanceof NoSuchFileException ? "No such file or directory" : error.getMessage();
    }

    private Outcome set(MetaCommand command, String locus) {
        List<String> arguments = command.arguments();
        if (arguments.isEmpty()) {
            for (var entry : variables.all().entrySet()) {
                println(entry.getKey() + " = '" + entry.getValue() + "'");
            }
            return Outcome.CONTINUE;
        }
        String name = arguments.getFirst();
        if (!ShellVariables.isValidName(name)) {
            metaError(locus, "invalid variable name: \"" + name + "\"");
            return Outcome.FAILED;
        }
        try {
            variables.set(name, String.join("", arguments.subList(1, arguments.size())));
        } catch (IllegalArgumentException refused) {
            metaError(locus, refused.getMessage());
            return Outcome.FAILED;
        }
        return Outcome.CONTINUE;
    }

    private Outcome describe(MetaCommand command, String locus) {
        DescribeCommands.Output output;
        try {
            if (describe == null) {
                describe = new DescribeCommands(session.database(), session.catalog());
            }
            output = describe.run(command);
        } catch (DescribeCommands.DescribeException e) {
            metaError(locus, e.getMessage());
            return Outcome.FAILED;
        }
        if (output.notFound() != null) {
            out.flush();
            err.print(output.notFound() + "\n");
            err.flush();
        } else if (output.message() != null) {
            resultOut.print(output.message());
        } else if (options.format() == OutputFormat.ALIGNED && options.expanded() != ExpandedMode.ON) {
            resultOut.print(TitledTable.format(output.title(), output.columns(), output.rows(), output.footers()));
        } else {
            try (TextRowsResult result = new TextRowsResult(output.columns(), output.rows(), "SELECT " + output.rows().size(), List.of())) {
                printer.print(result, resultOut);
            }
        }
        resultOut.flush();
        return Outcome.CONTINUE;
    }

    private void metaError(String locus, String message) {
        out.flush();
        err.print((locus.isEmpty() ? "" : locus + "error: ") + message + "\n");
        err.flush();
    }

    private void println(String text) {
        out.print(text);
        out.print('\n');
    }
}
