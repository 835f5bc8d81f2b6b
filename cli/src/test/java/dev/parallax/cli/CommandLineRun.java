package dev.parallax.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs {@code parallax -c COMMAND ...} in this JVM, as the describe tests do: what it printed, after checking it succeeded. */
final class CommandLineRun {
    private CommandLineRun() {
    }

    /** Standard output of {@code parallax -c commands[0] -c commands[1] ...}, which must exit 0. */
    static String commands(String... commands) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] args = new String[commands.length * 2];
        for (int index = 0; index < commands.length; index++) {
            args[2 * index] = "-c";
            args[2 * index + 1] = commands[index];
        }
        int status = Main.run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, status);
        return out.toString(StandardCharsets.UTF_8);
    }
}
