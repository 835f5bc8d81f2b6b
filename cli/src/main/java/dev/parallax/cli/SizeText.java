package dev.parallax.cli;

/**
 * A byte count as PostgreSQL's {@code pg_size_pretty} writes it: bytes below 10240, then kB, MB, GB
 * and TB, each unit used while the value stays below 20480 of it, rounded half away from zero.
 */
final class SizeText {
    private static final long LIMIT = 10 * 1024;
    private static final long HALF_UNIT_LIMIT = LIMIT * 2 - 1;
    private static final String[] UNITS = {"kB", "MB", "GB", "TB", "PB"};

    private SizeText() {
    }

    static String of(long bytes) {
        if (Math.abs(bytes) < LIMIT) {
            return bytes + " bytes";
        }
        // One extra bit of precision is kept for the rounding, as pg_size_pretty does.
        long halfUnits = bytes >> 9;
        int unit = 0;
        while (Math.abs(halfUnits) >= HALF_UNIT_LIMIT && unit < UNITS.length - 1) {
            halfUnits >>= 10;
            unit++;
        }
        return (halfUnits + (halfUnits < 0 ? -1 : 1)) / 2 + " " + UNITS[unit];
    }
}
