package dev.parallax.cli;

import dev.parallax.Session;
import dev.parallax.engine.exec.StatementProgress;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;

/**
 * A one-line progress bar on stderr for statements that run longer than about a second and report
 * progress (CALL dbgen today): {@code [=======>      ] 54%  3.2M/6.0M rows  2.1 s  1.5M rows/s}.
 * Drawn by a daemon thread polling {@link Session#progress()}; erased when the statement ends.
 * Only used when the terminal is interactive, so scripts and pipes never see it.
 */
final class ProgressBar implements AutoCloseable {
    private static final long SHOW_AFTER_NANOS = 1_000_000_000L;
    private static final long REDRAW_MILLIS = 200;
    private static final int BAR_WIDTH = 30;

    private final Session session;
    private final PrintStream err;
    private final Thread thread;
    private volatile boolean stopped;
    private int drawnWidth;

    private ProgressBar(Session session, PrintStream err) {
        this.session = session;
        this.err = err;
        this.thread = new Thread(this::run, "parallax-progress");
        this.thread.setDaemon(true);
    }

    static ProgressBar start(Session session, PrintStream err) {
        ProgressBar bar = new ProgressBar(session, err);
        bar.thread.start();
        return bar;
    }

    private void run() {
        while (!stopped) {
            try {
                Thread.sleep(REDRAW_MILLIS);
            } catch (InterruptedException stop) {
                return;
            }
            Optional<StatementProgress.Snapshot> progress = session.progress();
            if (!stopped && progress.isPresent() && progress.get().elapsedNanos() >= SHOW_AFTER_NANOS) {
                draw(line(progress.get()));
            }
        }
    }

    static String line(StatementProgress.Snapshot progress) {
        double seconds = progress.elapsedNanos() / 1e9;
        StringBuilder line = new StringBuilder(progress.phase()).append(' ');
        double fraction = progress.fraction();
        if (fraction >= 0) {
            int filled = (int) Math.round(fraction * BAR_WIDTH);
            line.append('[').append("=".repeat(Math.max(0, filled - 1))).append(filled > 0 ? ">" : "")
                    .append(" ".repeat(BAR_WIDTH - filled)).append("] ")
                    .append(String.format(Locale.ROOT, "%3d%%  ", (int) (fraction * 100)));
        }
        line.append(count(progress.done()));
        if (progress.total() > 0) {
            line.append('/').append(count(progress.total()));
        }
        line.append(' ').append(progress.unit())
                .append(String.format(Locale.ROOT, "  %.1f s", seconds));
        if (seconds > 0) {
            line.append("  ").append(count((long) (progress.done() / seconds))).append(' ').append(progress.unit()).append("/s");
        }
        return line.toString();
    }

    /** 1234 -> 1234, 12345 -> 12.3k, 6001215 -> 6.0M. */
    static String count(long value) {
        if (value < 10_000) {
            return Long.toString(value);
        }
        if (value < 1_000_000) {
            return String.format(Locale.ROOT, "%.1fk", value / 1e3);
        }
        return String.format(Locale.ROOT, "%.1fM", value / 1e6);
    }

    private synchronized void draw(String line) {
        if (stopped) {
            return;
        }
        String padded = line.length() < drawnWidth ? line + " ".repeat(drawnWidth - line.length()) : line;
        err.print('\r');
        err.print(padded);
        err.flush();
        drawnWidth = Math.max(drawnWidth, line.length());
    }

    /** Stops drawing and erases the bar, so the statement's own output starts on a clean line. */
    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (drawnWidth > 0) {
                err.print('\r');
                err.print(" ".repeat(drawnWidth));
                err.print('\r');
                err.flush();
            }
        }
    }
}
