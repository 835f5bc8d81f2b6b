package dev.parallax.cli;

import java.util.Locale;

/** psql's {@code \timing} line: {@code Time: 12.345 ms}, with a clock form added from one second on. */
final class Timing {
    private Timing() {
    }

    static String format(double milliseconds) {
        if (milliseconds < 1000.0) {
            return String.format(Locale.ROOT, "Time: %.3f ms", milliseconds);
        }
        double seconds = milliseconds / 1000.0;
        double minutes = Math.floor(seconds / 60.0);
        seconds -= 60.0 * minutes;
        if (minutes < 60.0) {
            return String.format(Locale.ROOT, "Time: %.3f ms (%02d:%06.3f)", milliseconds, (int) minutes, seconds);
        }
        double hours = Math.floor(minutes / 60.0);
        minutes -= 60.0 * hours;
        if (hours < 24.0) {
            return String.format(Locale.ROOT, "Time: %.3f ms (%02d:%02d:%06.3f)",
                    milliseconds, (int) hours, (int) minutes, seconds);
        }
        double days = Math.floor(hours / 24.0);
        hours -= 24.0 * days;
        return String.format(Locale.ROOT, "Time: %.3f ms (%.0f d %02d:%02d:%06.3f)",
                milliseconds, days, (int) hours, (int) minutes, seconds);
    }
}
