package dev.parallax.engine.type;

/**
 * PostgreSQL 12+ output of REAL and DOUBLE PRECISION: the shortest digits that read back as the
 * same value, in fixed notation when the decimal exponent is in [-4, digits-of-precision), else
 * {@code d.ddde+XX} with at least two exponent digits. {@code Double.toString} (JDK 19+) already
 * yields the shortest round-trip digits; this only re-lays them out.
 */
public final class FloatText {
    /** DBL_DIG and FLT_DIG: fixed notation is used below 10^this. */
    private static final int DOUBLE_FIXED_LIMIT = 15;
    private static final int REAL_FIXED_LIMIT = 6;

    /**
     * Per-thread scratch for one value (a cast of random() to text runs once per row): Java's text
     * of it, appended in place (StringBuilder.append(double) allocates nothing where
     * Double.toString made 104 bytes per value: a byte array and a String), and its digits.
     */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static final class Scratch {
        final StringBuilder javaText = new StringBuilder(32);
        final StringBuilder digits = new StringBuilder(24);
    }

    private FloatText() {
    }

    public static void appendDouble(StringBuilder out, double value) {
        if (!special(out, value)) {
            Scratch scratch = SCRATCH.get();
            scratch.javaText.setLength(0);
            layout(out, scratch.javaText.append(value), scratch.digits, DOUBLE_FIXED_LIMIT);
        }
    }

    public static void appendReal(StringBuilder out, float value) {
        if (!special(out, value)) {
            Scratch scratch = SCRATCH.get();
            scratch.javaText.setLength(0);
            layout(out, scratch.javaText.append(value), scratch.digits, REAL_FIXED_LIMIT);
        }
    }

    private static boolean special(StringBuilder out, double value) {
        if (Double.isNaN(value)) {
            out.append("NaN");
        } else if (value == Double.POSITIVE_INFINITY) {
            out.append("Infinity");
        } else if (value == Double.NEGATIVE_INFINITY) {
            out.append("-Infinity");
        } else if (value == 0) {
            out.append(1 / value < 0 ? "-0" : "0");
        } else {
            return false;
        }
        return true;
    }

    /** Lays out {@code javaText} (Java's shortest round-trip text of the value) as PostgreSQL does, using {@code digits} as scratch. */
    private static void layout(StringBuilder out, StringBuilder javaText, StringBuilder digits, int fixedLimit) {
        int index = 0;
        if (javaText.charAt(0) == '-') {
            out.append('-');
            index = 1;
        }
        int exponentMark = javaText.indexOf("E");
        int mantissaEnd = exponentMark < 0 ? javaText.length() : exponentMark;
        int javaExponent = exponentMark < 0 ? 0 : Integer.parseInt(javaText, exponentMark + 1, javaText.length(), 10);
        digits.setLength(0);
        int pointDigits = -1;
        for (int position = index; position < mantissaEnd; position++) {
            char character = javaText.charAt(position);
            if (character == '.') {
                pointDigits = digits.length();
            } else {
                digits.append(character);
            }
        }
        if (pointDigits < 0) {
            pointDigits = digits.length();
        }
        // Strip leading zeros (moving the point) and trailing zeros.
        int leading = 0;
        while (leading < digits.length() - 1 && digits.charAt(leading) == '0') {
            leading++;
        }
        int trailingEnd = digits.length();
        while (trailingEnd > leading + 1 && digits.charAt(trailingEnd - 1) == '0') {
            trailingEnd--;
        }
        // The significant digits are digits[leading, trailingEnd): appended by range, no substring per value.
        int significantLength = trailingEnd - leading;
        // Scientific exponent of the first significant digit.
        int exponent = pointDigits - leading - 1 + javaExponent;
        if (exponent >= -4 && exponent < fixedLimit) {
            if (exponent < 0) {
                out.append("0.");
                for (int zero = -1; zero > exponent; zero--) {
                    out.append('0');
                }
                out.append(digits, leading, trailingEnd);
            } else if (significantLength <= exponent + 1) {
                out.append(digits, leading, trailingEnd);
                for (int zero = significantLength; zero <= exponent; zero++) {
                    out.append('0');
                }
            } else {
                out.append(digits, leading, leading + exponent + 1).append('.').append(digits, leading + exponent + 1, trailingEnd);
            }
        } else {
            out.append(digits.charAt(leading));
            if (significantLength > 1) {
                out.append('.').append(digits, leading + 1, trailingEnd);
            }
            out.append('e').append(exponent < 0 ? '-' : '+');
            int magnitude = Math.abs(exponent);
            if (magnitude < 10) {
                out.append('0');
            }
            out.append(magnitude);
        }
    }
}
