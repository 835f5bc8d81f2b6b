package dev.parallax.cli;

import dev.parallax.Session;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The psql-like interactive shell: a JLine line editor with persistent history, the prompt
 * {@code parallax=> } and continuation prompts {@code parallax-> }, {@code parallax(> },
 * {@code parallax'> }; an input runs once its last statement ends with a semicolon (or it is a
 * backslash command). Ctrl-C while typing clears the input, Ctrl-C while a statement runs cancels
 * it through {@link Session#cancel()}, Ctrl-D ends the shell. Results taller than the terminal go
 * through a pager ({@code $PAGER}, else {@code less -FRX}) unless {@code \pset pager off}.
 */
final class InteractiveShell {
    static final String PROMPT = "parallax=> ";
    static final String CONTINUATION_PROMPT = "parallax%M> ";
    private static final String HISTORY_VARIABLE = "PARALLAX_HISTORY";

    private final Session session;
    private final ScriptRunner runner;
    private final PrintStream out;
    private final String version;

    InteractiveShell(Session session, ScriptRunner runner, PrintStream out, String version) {
        this.session = Objects.requireNonNull(session, "session");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.out = Objects.requireNonNull(out, "out");
        this.version = Objects.requireNonNull(version, "version");
    }

    /** Runs until {@code \q} or end of input; returns the exit status (always success, as psql's). */
    int run() {
        try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
            ShellInputParser parser = new ShellInputParser();
            LineReader reader = LineReaderBuilder.builder()
                    .terminal(terminal)
                    .appName("parallax")
                    .parser(parser)
                    .completer(new SqlCompleter(session.database()))
                    .variable(LineReader.HISTORY_FILE, historyFile())
                    .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION_PROMPT)
                    // Without this JLine reads "\timing" as "timing" (! and \ history expansion).
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                    .option(LineReader.Option.INSERT_TAB, false)
                    .build();
            // Ctrl-C outside readLine (a statement is running) cancels it; readLine installs its own handler.
            terminal.handle(Terminal.Signal.INT, signal -> session.cancel());
            runner.setInteractive(true);
            runner.setStandardInput(new PromptedCopyData(reader, parser));
            runner.setTerminalWidth(terminal::getWidth);
            out.print("parallax (" + version + ")\nType \"help\" for help.\n\n");
            out.flush();
            while (!runner.quitRequested()) {
                String input;
                try {
                    input = reader.readLine(PROMPT);
                } catch (UserInterruptException interrupted) {
                    continue;
                } catch (EndOfFileException endOfInput) {
                    out.print("\\q\n");
                    break;
                }
                if (!runInput(input, terminal)) {
                    break;
                }
            }
            out.flush();
            return Main.EXIT_SUCCESS;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs one complete input; false when the shell should end. */
    private boolean runInput(String input, Terminal terminal) {
        String stripped = input.strip();
        if (ShellInputParser.isBareWord(stripped)) {
            if (stripped.toLowerCase(java.util.Locale.ROOT).startsWith("help")) {
                out.print(HELP);
                out.flush();
                return true;
            }
            return false;
        }
        boolean paged = runner.pager() && runner.resultsToStandardOutput() && !stripped.startsWith("\\")
                && terminal.getHeight() > 0 && !Terminal.TYPE_DUMB.equals(terminal.getType());
        ByteArrayOutputStream buffer = paged ? new ByteArrayOutputStream() : null;
        if (paged) {
            runner.bufferStandardOutput(new PrintStream(buffer, false, StandardCharsets.UTF_8));
        }
        try {
            runner.runScript(new BufferedReader(new StringReader(input)), null, false);
        } finally {
            if (paged) {
                runner.endStandardOutputBuffer();
                show(buffer.toString(StandardCharsets.UTF_8), terminal.getHeight());
            }
        }
        out.flush();
        return !runner.quitRequested();
    }

    /** Prints {@code text}, through the pager when it has more lines than the terminal. */
    private void show(String text, int terminalHeight) {
        long lines = text.chars().filter(character -> character == '\n').count();
        if (lines >= terminalHeight && runPager(text)) {
            return;
        }
        out.print(text);
    }

    private boolean runPager(String text) {
        String pager = System.getenv("PAGER");
        ProcessBuilder builder = pager == null || pager.isBlank()
                ? new ProcessBuilder("less", "-FRX")
                : new ProcessBuilder("/bin/sh", "-c", pager);
        builder.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
        try {
            out.flush();
            Process process = builder.start();
            try (OutputStream input = process.getOutputStream()) {
                input.write(text.getBytes(StandardCharsets.UTF_8));
            } catch (IOException closedEarly) {
                // The user quit the pager before reading everything: nothing more to show.
            }
            process.waitFor();
            return true;
        } catch (IOException noPager) {
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /**
     * COPY FROM STDIN data typed at psql's {@code >> } prompt after its instructions; Ctrl-D ends
     * the data as {@code \.} does, Ctrl-C fails the COPY as psql's "canceled by user". The lines
     * are taken as they are typed (not as SQL to complete) and kept out of the history.
     */
    private final class PromptedCopyData implements CopyDataLines {
        private static final String COPY_PROMPT = ">> ";

        private final LineReader reader;
        private final ShellInputParser parser;

        PromptedCopyData(LineReader reader, ShellInputParser parser) {
            this.reader = reader;
            this.parser = parser;
        }

        @Override
        public void start() {
            if (!runner.options().quiet()) {
                out.print("Enter data to be copied followed by a newline.\n"
                        + "End with a backslash and a period on a line by itself, or an EOF signal.\n");
                out.flush();
            }
        }

        @Override
        public String nextLine() {
            parser.setRawLines(true);
            reader.setVariable(LineReader.DISABLE_HISTORY, true);
            try {
                return reader.readLine(COPY_PROMPT);
            } catch (EndOfFileException endOfInput) {
                return null;
            } catch (UserInterruptException interrupted) {
                throw new UncheckedIOException(new IOException("canceled by user"));
            } finally {
                parser.setRawLines(false);
                reader.setVariable(LineReader.DISABLE_HISTORY, false);
            }
        }
    }

    private static Path historyFile() {
        String override = System.getenv(HISTORY_VARIABLE);
        if (override != null && !override.isBlank()) {
            return Path.of(override);
        }
        return Path.of(System.getProperty("user.home"), ".parallax_history");
    }

    private static final String HELP = """
            You are using parallax, the interactive shell of the Parallax SQL engine.
            Type:  \\? for help with parallax commands
                   \\q or Ctrl-D to quit
                   end SQL statements with a semicolon; Ctrl-C cancels a running statement
            """;
}
