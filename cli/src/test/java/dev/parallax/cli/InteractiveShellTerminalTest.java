package dev.parallax.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The interactive shell on a real pseudo-terminal: the shell runs in a detached tmux session (its
 * own server socket, no user configuration) and the test types into it with {@code send-keys} and
 * reads the screen with {@code capture-pane}. Every wait polls the screen with a bound, so a
 * broken shell fails in seconds rather than hanging. Skipped when tmux is not installed.
 */
class InteractiveShellTerminalTest {
    private static final long POLL_MILLIS = 50;
    /** How long a step may take before the shell counts as broken: generous, for a loaded machine. */
    private static final long WAIT_MILLIS = 30_000;
    private static final String PROMPT = "parallax=>";
    private static final String CONTINUATION = "parallax->";
    private static final String LONG_QUERY = "select count(*) from generate_series(1, 2000000000);";

    @TempDir
    Path directory;

    private final String socket = "parallax-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    private Path history;

    @BeforeEach
    void startShell() throws Exception {
        assumeTrue(tmuxAvailable(), "tmux is not installed: the pseudo-terminal test of the shell needs it"
                + " (install the tmux package to run it)");
        history = directory.resolve("history");
        List<String> command = new ArrayList<>(List.of("new-session", "-d", "-s", "shell", "-x", "120", "-y", "50",
                "-c", directory.toString(), "-e", "PARALLAX_HISTORY=" + history, "-e", "PAGER=cat"));
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        // The flags surefire gave this JVM (--add-opens and the like) serve the shell's JVM too.
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("--enable-native-access")
                    || argument.startsWith("--sun-misc")) {
                command.add(argument);
            }
        }
        command.addAll(List.of("-cp", classPath(), Main.class.getName(), "shell"));
        tmux(command.toArray(String[]::new));
    }

    @AfterEach
    void stopServer() throws Exception {
        if (history != null) {
            tmuxQuietly("kill-server");
        }
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void multiLineStatementHistoryCancelAndExit() throws Exception {
        awaitLastLine(PROMPT, 90_000, "the first prompt");
        assertTrue(screen().startsWith("parallax ("), screen());

        sendLine("select 1 +");
        awaitLastLine(CONTINUATION, WAIT_MILLIS, "the continuation prompt");
        sendLine("2 as x;");
        await(text -> text.contains(" x\n---\n 3\n(1 row)\n") && lastLine(text).equals(PROMPT),
                WAIT_MILLIS, "the multi-line statement's result");

        // Up recalls the whole multi-line statement from history; Enter runs it again.
        tmux("send-keys", "-t", "shell", "Up");
        await(text -> text.endsWith("parallax=> select 1 +\nparallax-> 2 as x;"), WAIT_MILLIS, "the recalled statement");
        tmux("send-keys", "-t", "shell", "Enter");
        await(text -> occurrences(text, "(1 row)") == 2 && lastLine(text).equals(PROMPT), WAIT_MILLIS, "the re-run result");

        sendLine(LONG_QUERY);
        // Accepted once the cursor has left the statement's line (typed but not accepted, it stays on it).
        await(text -> lastLine(text).equals(PROMPT + " " + LONG_QUERY) && cursorRow() > lineCount(text) - 1,
                WAIT_MILLIS, "the long query to start");
        // A Ctrl-C that arrives before the statement has left the line editor (whose own handler only
        // clears input) cancels nothing: press it again until the cancellation shows, as a user would.
        Predicate<String> cancelled = text -> text.contains("ERROR:  canceling statement due to user request\n")
                && lastLine(text).equals(PROMPT);
        long cancelDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        do {
            Thread.sleep(300);
            tmux("send-keys", "-t", "shell", "C-c");
        } while (!awaitQuietly(cancelled, 3_000) && System.nanoTime() < cancelDeadline);
        await(cancelled, 1_000, "the cancellation");
        assertTrue(!screen().contains("\n count\n"), "the long query finished before the cancel: " + screen());

        sendLine("select 1;");
        await(text -> text.contains(" ?column?\n----------\n        1\n(1 row)\n") && lastLine(text).equals(PROMPT),
                WAIT_MILLIS, "select 1 after the cancellation");

        tmux("send-keys", "-t", "shell", "C-d");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (tmuxQuietly("has-session", "-t", "shell") == 0) {
            if (System.nanoTime() > deadline) {
                fail("the shell did not exit on Ctrl-D:\n" + screen());
            }
            Thread.sleep(POLL_MILLIS);
        }
        String saved = Files.readString(history, StandardCharsets.UTF_8);
        assertTrue(saved.contains(":select 1 +\\n2 as x;\n"), saved);
        assertTrue(saved.contains(":" + LONG_QUERY + "\n"), saved);
        assertTrue(saved.contains(":select 1;\n"), saved);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void copyFromStandardInputPromptsForTheData() throws Exception {
        awaitLastLine(PROMPT, 90_000, "the first prompt");
        sendLine("create table t (a int, b text);");
        await(text -> text.contains("CREATE TABLE\n") && lastLine(text).equals(PROMPT), WAIT_MILLIS, "the table");

        // psql 15's instructions and its ">>" prompt; the data lines are not SQL waiting for a semicolon.
        sendLine("copy t from stdin with (format csv);");
        await(text -> text.endsWith("Enter data to be copied followed by a newline.\n"
                + "End with a backslash and a period on a line by itself, or an EOF signal.\n>>"), WAIT_MILLIS, "the data prompt");
        sendLine("1,one");
        awaitLastLine(">>", WAIT_MILLIS, "the second data prompt");
        sendLine("2,");
        awaitLastLine(">>", WAIT_MILLIS, "the third data prompt");
        sendLine("\\.");
        await(text -> text.contains(">> \\.\nCOPY 2\n") && lastLine(text).equals(PROMPT), WAIT_MILLIS, "COPY 2");

        // Ctrl-D ends the data as the end marker does.
        sendLine("copy t from stdin with (format csv);");
        await(text -> occurrences(text, "End with a backslash") == 2 && lastLine(text).equals(">>"), WAIT_MILLIS, "the data prompt again");
        sendLine("3,three");
        awaitLastLine(">>", WAIT_MILLIS, "the data prompt after a line");
        tmux("send-keys", "-t", "shell", "C-d");
        await(text -> text.contains("COPY 1\n") && lastLine(text).equals(PROMPT), WAIT_MILLIS, "COPY 1");

        sendLine("select a, b is null as missing from t order by a;");
        await(text -> text.contains(" a | missing\n---+---------\n 1 | f\n 2 | t\n 3 | f\n(3 rows)\n") && lastLine(text).equals(PROMPT),
                WAIT_MILLIS, "the copied rows");
    }

    /** Types {@code line} and Enter; tmux reads a trailing {@code ;} as its command separator, hence the escape. */
    private void sendLine(String line) throws Exception {
        String keys = line.endsWith(";") ? line.substring(0, line.length() - 1) + "\\;" : line;
        tmux("send-keys", "-t", "shell", "-l", keys);
        tmux("send-keys", "-t", "shell", "Enter");
    }

    private void awaitLastLine(String expected, long timeoutMillis, String what) throws Exception {
        await(text -> lastLine(text).equals(expected), timeoutMillis, what);
    }

    /** Waits for the condition at most this long; false when it did not come. */
    private boolean awaitQuietly(Predicate<String> condition, long timeoutMillis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!condition.test(screen())) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }

    private void await(Predicate<String> condition, long timeoutMillis, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        String text = screen();
        while (!condition.test(text)) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what + "; the screen shows:\n" + text);
            }
            Thread.sleep(POLL_MILLIS);
            text = screen();
        }
    }

    /** The visible screen, trailing blank lines and each line's trailing spaces removed. */
    private String screen() throws Exception {
        String captured = run(List.of("tmux", "-L", socket, "-f", "/dev/null", "capture-pane", "-p", "-t", "shell"));
        // capture-pane drops trailing blanks of some lines only; drop them everywhere for exact comparisons.
        return captured.lines().map(String::stripTrailing).collect(Collectors.joining("\n")).stripTrailing();
    }

    /** The cursor's row on the screen, 0 at the top. */
    private int cursorRow() {
        try {
            return Integer.parseInt(run(List.of("tmux", "-L", socket, "-f", "/dev/null", "display-message", "-p",
                    "-t", "shell", "#{cursor_y}")).strip());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int lineCount(String text) {
        return occurrences(text, "\n") + 1;
    }

    private static String lastLine(String text) {
        return text.substring(text.lastIndexOf('\n') + 1).stripTrailing();
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int index = text.indexOf(part); index >= 0; index = text.indexOf(part, index + 1)) {
            count++;
        }
        return count;
    }

    private void tmux(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket, "-f", "/dev/null"));
        command.addAll(Arrays.asList(arguments));
        run(command);
    }

    private int tmuxQuietly(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket, "-f", "/dev/null"));
        command.addAll(Arrays.asList(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    private static String run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("timed out: " + command);
        }
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), () -> command + " failed: " + text);
        return text;
    }

    private static boolean tmuxAvailable() {
        try {
            Process process = new ProcessBuilder("tmux", "-V").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(5, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException | InterruptedException notInstalled) {
            return false;
        }
    }

    /** Surefire runs tests from a manifest-only jar; the real class path is in this property. */
    private static String classPath() {
        String testClassPath = System.getProperty("surefire.test.class.path");
        String path = testClassPath != null && !testClassPath.isBlank() ? testClassPath : System.getProperty("java.class.path");
        return String.join(File.pathSeparator, path.split(File.pathSeparator));
    }
}
