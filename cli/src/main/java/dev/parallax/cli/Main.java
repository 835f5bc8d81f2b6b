package dev.parallax.cli;

import dev.parallax.Database;
import dev.parallax.Session;
import org.jline.terminal.spi.SystemStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;

/**
 * The {@code parallax} command: runs SQL against a fresh in-memory database, psql-style.
 * Exit status as psql's: the last {@code -c} or {@code -f} decides it (0, or 1 when a {@code -c} failed
 * or a file could not be read); a script goes on after a failed statement unless ON_ERROR_STOP is
 * on, and then a script stopped by it exits 3. 1 also for a command line that cannot be used.
 */
@Command(name = "parallax",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        headerHeading = "",
        header = "parallax — an in-process parallel SQL engine",
        description = {
                "Runs SQL on an in-memory database and prints results as psql does.",
                "Commands (-c) and files (-f) run in the order given; with neither, SQL is read from standard input",
                "- or, when standard input is a terminal, the interactive shell opens.",
                "Errors go to stderr and the run goes on; with -v ON_ERROR_STOP=1 it stops at the first (exit status 3).",
                "Exit status: that of the last -c or -f (1 when it failed, for -c, or its file was missing), else 0."},
        commandListHeading = "%nCommands:%n",
        footerHeading = "%nExamples:%n",
        footer = {
                "  parallax --tpch 1 -c '\\timing on' -f queries/tpch/q1.sql",
                "  echo 'select 1 + 1;' | parallax --csv",
                "  parallax shell --tpch 0.1",
                ""})
public final class Main implements Callable<Integer> {
    static final int EXIT_SUCCESS = 0;
    static final int EXIT_FAILURE = 1;
    /** psql's EXIT_USER: a script stopped at a failure because ON_ERROR_STOP is on. */
    static final int EXIT_STOPPED = 3;

    /** One -c or -f, in command-line order. */
    private sealed interface Action permits CommandAction, FileAction {
    }

    private record CommandAction(String sql) implements Action {
    }

    private record FileAction(String path) implements Action {
    }

    private final List<Action> actions = new ArrayList<>();
    /** -v NAME=VALUE (or NAME alone, which unsets it), in command-line order. */
    private final List<String> variableAssignments = new ArrayList<>();
    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--csv", scope = ScopeType.INHERIT, description = "Print rows as CSV (psql's --csv).")
    private boolean csv;

    @Option(names = {"-A", "--no-align"}, scope = ScopeType.INHERIT, description = "Unaligned output: fields joined by the field separator.")
    private boolean unaligned;

    // Not inherited: the vacuum subcommand's -t names a table, as vacuumdb's does; shell declares its own.
    @Option(names = {"-t", "--tuples-only"}, description = "Print rows only: no header, no row-count footer.")
    private boolean tuplesOnly;

    @Option(names = {"-F", "--field-separator"}, scope = ScopeType.INHERIT, paramLabel = "SEP", defaultValue = "|",
            description = "Field separator of unaligned output (default: ${DEFAULT-VALUE}).")
    private String fieldSeparator;

    @Option(names = {"-q", "--quiet"}, scope = ScopeType.INHERIT, description = "Print no command tags and no informational messages.")
    private boolean quiet;

    @Option(names = "--tpch", scope = ScopeType.INHERIT, paramLabel = "SF",
            description = "First create and fill the TPC-H tables at this scale factor (CALL dbgen(sf => SF)).")
    private BigDecimal tpchScaleFactor;

    @Option(names = "--db", paramLabel = "DIR", scope = ScopeType.INHERIT,
            description = "Reserved for the persistent mode of a later release (not available yet).")
    private Path databaseDirectory;

    /** Whether a -c or -f has run: psql then prints a missing file without its "psql: error: " prefix. */
    private boolean briefMessages;

    /** Whether standard input is a terminal: then no -c/-f means the interactive shell. */
    private final boolean interactiveTerminal;
    /** Whether standard error is a terminal: then long statements draw a progress bar there. */
    private final boolean progressTerminal;
    /** Environment variables (PGPASSWORD, PGUSER...): the process's, or a test's. */
    private java.util.function.Function<String, String> environment = System::getenv;

    Main(InputStream in, PrintStream out, PrintStream err) {
        this(in, out, err, false, false);
    }

    Main(InputStream in, PrintStream out, PrintStream err, boolean interactiveTerminal, boolean progressTerminal) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.interactiveTerminal = interactiveTerminal;
        this.progressTerminal = progressTerminal;
    }

    @Option(names = {"-c", "--command"}, paramLabel = "SQL",
            description = "Run this SQL or backslash command (repeatable; runs in order with -f).")
    private void addCommand(String sql) {
        actions.add(new CommandAction(sql));
    }

    @Option(names = {"-v", "--set", "--variable"}, paramLabel = "NAME=VALUE",
            description = "Set the shell variable NAME to VALUE, as \\set does (e.g. -v ON_ERROR_STOP=1); NAME alone unsets it.")
    private void addVariable(String assignment) {
        variableAssignments.add(assignment);
    }

    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "Run the SQL script in FILE (repeatable; runs in order with -c).")
    private void addFile(String path) {
        actions.add(new FileAction(path));
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        boolean interactive = TerminalStreams.isTerminal(SystemStream.Input) && TerminalStreams.isTerminal(SystemStream.Output);
        int status = run(args, System.in, out, err, interactive, TerminalStreams.isTerminal(SystemStream.Error));
        out.flush();
        err.flush();
        System.exit(status);
    }

    /** Runs the command with these arguments and streams; returns the exit status. */
    static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        return run(args, in, out, err, false, false);
    }

    /** As {@link #run(String[], InputStream, PrintStream, PrintStream)} with these environment variables instead of the process's. */
    static int run(String[] args, InputStream in, PrintStream out, PrintStream err, java.util.Map<String, String> environment) {
        Main main = new Main(in, out, err, false, false);
        main.environment = environment::get;
        return execute(main, args, out, err);
    }

    /**
     * As {@link #run(String[], InputStream, PrintStream, PrintStream)}; {@code interactiveTerminal}
     * when stdin (and stdout) are a terminal, {@code progressTerminal} when stderr is one.
     */
    static int run(String[] args, InputStream in, PrintStream out, PrintStream err, boolean interactiveTerminal,
                   boolean progressTerminal) {
        return execute(new Main(in, out, err, interactiveTerminal, progressTerminal), args, out, err);
    }

    private static int execute(Main main, String[] args, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(main);
        // -c and -f are setter methods that append each occurrence in command-line order.
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setOut(new java.io.PrintWriter(out, true));
        commandLine.setErr(new java.io.PrintWriter(err, true));
        // psql exits 1 on a bad option too; picocli's default would be 2.
        commandLine.setExitCodeExceptionMapper(exception -> EXIT_FAILURE);
        commandLine.setParameterExceptionHandler((exception, arguments) -> {
            err.print("parallax: error: " + exception.getMessage() + "\n");
            err.print("Try \"parallax --help\" for more information.\n");
            err.flush();
            return EXIT_FAILURE;
        });
        int status = commandLine.execute(args);
        out.flush();
        return status;
    }

    @Override
    public Integer call() {
        return run(actions.isEmpty() && interactiveTerminal);
    }

    @Command(name = "shell", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
            description = {"Open the interactive shell on an in-memory database (the default when standard input is a terminal).",
                    "Line editing, history in ~/.parallax_history (or $PARALLAX_HISTORY), tab completion of keywords, tables and columns.",
                    "Ctrl-C cancels the running statement, Ctrl-D quits, \\? lists the backslash commands."})
    int shell(@Option(names = {"-t", "--tuples-only"}, description = "Print rows only: no header, no row-count footer.")
              boolean shellTuplesOnly) {
        tuplesOnly |= shellTuplesOnly;
        return run(true);
    }

    @Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
            description = {"Serve an in-memory database over the PostgreSQL wire protocol (psql, pgbench, pgJDBC connect to it).",
                    "Each connection is a session; all share the worker pool. Trust authentication on loopback;",
                    "--password-file enables SCRAM-SHA-256. Runs until stopped (Ctrl-C)."})
    int serve(@Option(names = "--port", defaultValue = "5433", paramLabel = "PORT",
                      description = "TCP port (default: ${DEFAULT-VALUE}; 0 picks a free one).") int port,
              @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST",
                      description = "Address to listen on (default: ${DEFAULT-VALUE}).") String host,
              @Option(names = "--password-file", paramLabel = "FILE",
                      description = "user:password lines; clients must authenticate with SCRAM-SHA-256.") Path passwordFile,
              @Option(names = "--insecure-no-auth",
                      description = "Allow a non-loopback --host without passwords (anyone who reaches it gets in).") boolean insecureNoAuth,
              @Option(names = "--max-message-size", paramLabel = "BYTES", defaultValue = "67108864",
                      description = "Longest message a client may send (default: ${DEFAULT-VALUE}); longer ones close the connection.") int maxMessageSize) {
        return dev.parallax.cli.server.ServeCommand.run(host, port, passwordFile, insecureNoAuth, maxMessageSize,
                tpchScaleFactor, versionNumber(), out, err);
    }

    @Command(name = "vacuum", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false,
            description = {"Vacuum (and analyze) the tables as vacuumdb does.",
                    "The tables are handed to N jobs largest first, each job taking the next table when it is free. "
                            + "With --host or --port, the tables of a running server (parallax serve), over N connections "
                            + "(the password comes from PGPASSWORD, else a prompt); otherwise those of an embedded database "
                            + "set up by --tpch, -c and -f given before 'vacuum' (VACUUM (PARALLEL N-1) on the database's workers).",
                    "Prints VACUUM's report with --verbose."})
    int vacuum(@Option(names = {"-j", "--jobs"}, paramLabel = "N", defaultValue = "1",
                       description = "Vacuum N tables at the same time (default: ${DEFAULT-VALUE}).") int jobs,
               @Option(names = {"-z", "--analyze"}, description = "Also update the planner's statistics (VACUUM ANALYZE).") boolean analyze,
               @Option(names = {"-Z", "--analyze-only"}, description = "Only update the planner's statistics (ANALYZE).") boolean analyzeOnly,
               @Option(names = "--full", description = "Rewrite each table compactly (VACUUM FULL, one table at a time).") boolean full,
               @Option(names = {"-v", "--verbose"}, description = "Print the report of each table.") boolean verbose,
               @Option(names = {"-t", "--table"}, paramLabel = "TABLE",
                       description = "Vacuum this table only, TABLE[(COLUMNS)] as in SQL (repeatable; default: every user table).") List<String> tables,
               @Option(names = "--host", paramLabel = "HOST",
                       description = "Vacuum the tables of the server at HOST (default with --port: 127.0.0.1).") String host,
               @Option(names = {"-p", "--port"}, paramLabel = "PORT",
                       description = "The server's port (default with --host: 5433).") Integer port,
               @Option(names = {"-U", "--username"}, paramLabel = "USER",
                       description = "User to connect as (default: PGUSER, else the login name).") String username,
               @Option(names = {"-d", "--dbname"}, paramLabel = "DBNAME",
                       description = "Database to connect to (default: PGDATABASE, else the user name).") String databaseName,
               @Option(names = {"-w", "--no-password"}, description = "Never prompt for a password.") boolean noPassword,
               @Option(names = {"-W", "--password"}, description = "Prompt for a password before connecting.") boolean forcePrompt) {
        if (jobs < 1) {
            return vacuumUsageError("number of parallel jobs must be at least 1");
        }
        if (analyzeOnly && full) {
            return vacuumUsageError("cannot use the \"full\" option when performing only analyze");
        }
        List<TableSpecification> specifications = new java.util.ArrayList<>();
        for (String table : tables == null ? List.<String>of() : tables) {
            try {
                specifications.add(TableSpecification.parse(table));
            } catch (IllegalArgumentException invalid) {
                return vacuumUsageError(invalid.getMessage());
            }
        }
        if (host != null || port != null) {
            String user = username != null ? username : environment.apply("PGUSER") != null ? environment.apply("PGUSER")
                    : System.getProperty("user.name");
            String database = databaseName != null ? databaseName
                    : environment.apply("PGDATABASE") != null ? environment.apply("PGDATABASE") : user;
            RemoteVacuum.Target target = new RemoteVacuum.Target(host != null ? host : "127.0.0.1",
                    port != null ? port : dev.parallax.cli.server.ServerOptions.DEFAULT_PORT, user, database);
            java.util.function.Supplier<String> prompt = noPassword ? null : this::promptPassword;
            String password = forcePrompt && !noPassword ? promptPassword() : environment.apply("PGPASSWORD");
            return new RemoteVacuum(target, new RemoteVacuum.Options(analyze, analyzeOnly, full, verbose), out, err)
                    .run(jobs, specifications, password, prompt);
        }
        return run(false, VacuumStatementText.of(jobs, analyze, analyzeOnly, full, verbose, specifications));
    }

    /** vacuumdb's refusal of options that do not go together: the message on stderr, exit status 1. */
    private int vacuumUsageError(String message) {
        err.print("parallax: error: " + message + "\n");
        err.flush();
        return EXIT_FAILURE;
    }

    private int run(boolean shell) {
        return run(shell, null);
    }

    /**
     * Asks for a password as vacuumdb does ("Password: " on standard error): read without echo from
     * the console when there is one, else a line of standard input. Null when there is none.
     */
    private String promptPassword() {
        java.io.Console console = System.console();
        if (console != null && console.isTerminal()) {
            char[] typed = console.readPassword("Password: ");
            return typed == null ? null : new String(typed);
        }
        err.print("Password: ");
        err.flush();
        try {
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
        } catch (java.io.IOException failure) {
            return null;
        }
    }

    /** Runs the session; {@code finalStatement}, when not null, runs after the -c/-f actions (stdin is not read then). */
    private int run(boolean shell, String finalStatement) {
        if (databaseDirectory != null) {
            err.print("parallax: error: persistent databases are not available yet: --db is reserved for the persistent mode\n");
            err.flush();
            return EXIT_FAILURE;
        }
        PrintOptions options = new PrintOptions(
                csv ? OutputFormat.CSV : unaligned ? OutputFormat.UNALIGNED : OutputFormat.ALIGNED,
                tuplesOnly, fieldSeparator, quiet);
        try (Database database = Database.inMemory(); Session session = database.openSession()) {
            ScriptRunner runner = new ScriptRunner(session, options, out, err);
            runner.showProgress(progressTerminal);
            if (!setVariables(runner.variables())) {
                return EXIT_FAILURE;
            }
            if (tpchScaleFactor != null && !runner.runStatement(
                    "CALL dbgen(sf => " + tpchScaleFactor.toPlainString() + ")", "", true)) {
                return EXIT_FAILURE;
            }
            if (shell) {
                return new InteractiveShell(session, runner, out, versionNumber()).run();
            }
            BufferedReader standardInput = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            // psql's -c reads the data of COPY FROM STDIN from standard input, as \copy from pstdin does.
            runner.setStandardInput(CopyDataLines.of(standardInput));
            if (actions.isEmpty() && finalStatement == null) {
                return runner.runScript(standardInput, null) ? EXIT_SUCCESS : EXIT_STOPPED;
            }
            int status = EXIT_SUCCESS;
            for (Action action : actions) {
                status = switch (action) {
                    case CommandAction command -> {
                        briefMessages = true;
                        yield runner.runCommand(command.sql()) ? EXIT_SUCCESS : EXIT_FAILURE;
                    }
                    case FileAction file -> runFile(runner, file.path());
                };
                if (status != EXIT_SUCCESS && runner.variables().onErrorStop()) {
                    return status;
                }
            }
            if (finalStatement != null && !runner.runCommand(finalStatement)) {
                return EXIT_FAILURE;
            }
            return status;
        } finally {
            out.flush();
        }
    }

    /** Runs a -f file; its exit status as psql's process_file returns it. */
    private int runFile(ScriptRunner runner, String path) {
        try (BufferedReader reader = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
            briefMessages = true;
            return runner.runScript(reader, path) ? EXIT_SUCCESS : EXIT_STOPPED;
        } catch (NoSuchFileException e) {
            missingFile(path, "No such file or directory");
        } catch (IOException | UncheckedIOException e) {
            missingFile(path, e.getMessage());
        }
        return EXIT_FAILURE;
    }

    /** psql drops its "psql: error: " prefix once a -c or -f has run (its logging turns terse). */
    private void missingFile(String path, String reason) {
        if (briefMessages) {
            out.flush();
            err.print(path + ": " + reason + "\n");
            err.flush();
        } else {
            fileError(path, reason);
        }
    }

    /** Applies the -v assignments; false (the refusal printed) when one is not accepted, as psql exits then. */
    private boolean setVariables(ShellVariables variables) {
        for (String assignment : variableAssignments) {
            int equals = assignment.indexOf('=');
            String name = equals < 0 ? assignment : assignment.substring(0, equals);
            if (!ShellVariables.isValidName(name)) {
                fileError("invalid variable name: \"" + name + "\"");
                return false;
            }
            if (equals < 0) {
                variables.unset(name);
                continue;
            }
            try {
                variables.set(name, assignment.substring(equals + 1));
            } catch (IllegalArgumentException refused) {
                fileError(refused.getMessage());
                return false;
            }
        }
        return true;
    }

    private void fileError(String path, String reason) {
        fileError(path + ": " + reason);
    }

    private void fileError(String message) {
        out.flush();
        err.print("parallax: error: " + message + "\n");
        err.flush();
    }

    private static String versionNumber() {
        try {
            return new Version().getVersion()[0].substring("parallax ".length());
        } catch (IOException e) {
            return "unknown version";
        }
    }

    /** The version from the build (version.properties is filtered by Maven). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties properties = new Properties();
            try (InputStream stream = Main.class.getResourceAsStream("version.properties")) {
                if (stream != null) {
                    properties.load(stream);
                }
            }
            return new String[] {"parallax " + properties.getProperty("version", "(unknown version)")};
        }
    }
}
