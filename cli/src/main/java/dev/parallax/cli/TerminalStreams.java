package dev.parallax.cli;

import org.jline.terminal.spi.SystemStream;
import org.jline.terminal.spi.TerminalProvider;

import java.util.List;

/**
 * Which of the process's standard streams are terminals, each on its own (isatty per stream, through
 * JLine's native providers): the shell opens when standard input is one, the progress bar draws only
 * when standard error is one — so {@code parallax -f x.sql > out.txt} still shows progress, and
 * {@code parallax -f x.sql 2> log} never writes it into the log.
 */
final class TerminalStreams {
    /** JLine's providers that can ask the operating system, the in-process ones first. */
    private static final List<String> PROVIDERS = List.of("ffm", "jni", "exec");

    private TerminalStreams() {
    }

    static boolean isTerminal(SystemStream stream) {
        for (String name : PROVIDERS) {
            try {
                return TerminalProvider.load(name).isSystemStream(stream);
            } catch (Exception | LinkageError unavailable) {
                // This provider does not work here (no native access, no stty): try the next one.
            }
        }
        // No provider works: the JDK's console is a terminal only when input and output both are.
        java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }
}
