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

    private FloatText() {
    }

    public static void appendDouble(StringBuilder out, double value) {
        if (!special(out, value)) {
            layout(out, Double.toString(value), DOUBLE_FIXED_LIMIT);
        }
    }

    public static void appendReal(StringBuilder out, float value) {
        if (!special(out, value)) {
            layout(out, Float.toString(value), REAL_FIXED_LIMIT);
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

    private static void layout(StringBuilder out, String javaText, int fixedLimit) {
        int index = 0;
        if (javaText.charAt(0) == '-') {
            out.append('-');
            index = 1;
        }
        int exponentMark = javaText.indexOf('E');
        int mantissaEnd = exponentMark < 0 ? javaText.length() : exponentMark;
        int javaExponent = exponentMark < 0 ? 0 : Integer.parseInt(javaText, exponentMark + 1, javaText.length(), 10);
        StringBuilder digits = new StringBuilder(20);
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
        String significant = digits.substring(leading, trailingEnd);
        // Scientific exponent of the first significant digit.
        int exponent = pointDigits - leading - 1 + javaExponent;
        if (exponent >= -4 && exponent < fixedLimit) {
            if (exponent < 0) {
                out.append("0.");
                for (int zero = -1; zero > exponent; zero--) {
                    out.append('0');
                }
                out.append(significant);
            } else if (significant.length() <= exponent + 1) {
                out.append(significant);
                for (int zero = significant.length(); zero <= exponent; zero++) {
                    out.append('0');
                }
            } else {
                out.append(significant, 0, exponent + 1).append('.').append(significant, exponent + 1, significant.length());
            }
        } else {
            out.append(significant.charAt(0));
            if (significant.length() > 1) {
                out.append('.').append(significant, 1, significant.length());
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
