package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A template of PostgreSQL's {@code to_char(number, text)}, parsed once: 9 (a digit, a blank for a
 * leading zero), 0 (a digit, leading zeros kept from there on), . or D (the decimal point), , or G
 * (a group separator, a blank before the first digit), FM (no padding blanks or sign blank, no
 * trailing zeros written by 9), S (the sign, + or -, next to the number when written before it),
 * MI (- for a negative number, where written), double-quoted text; without S or MI a blank or -
 * stands before the number. A number with more integer digits than the template has is written
 * as #. PL, SG, PR, L, RN, V, EEEE and TH are refused with 0A000; any other character is copied.
 */
public final class NumberTemplate {
    private enum Kind { DIGIT_NINE, DIGIT_ZERO, DECIMAL_POINT, GROUP, SIGN, MINUS, LITERAL }

    private record Node(Kind kind, byte[] literal) {
    }

    private static final String[] REFUSED = {"EEEE", "PL", "SG", "PR", "RN", "TH", "L", "V"};

    private final Node[] nodes;
    private final boolean fillMode;
    private final int integerPositions;
    private final int fractionPositions;
    /** The integer position (0-based) of the first 0, or integerPositions when there is none. */
    private final int zeroStart;
    /** The last fraction position written by 0 (1-based), 0 when none: FM keeps the zeros up to it. */
    private final int lastZeroFraction;
    private final boolean anyZero;
    /** S or MI somewhere: no sign blank before the number. */
    private final boolean explicitSign;
    /** S written before the first digit: the sign stands next to the number. */
    private final boolean leadingAnchoredSign;
    /** The digits of the current value: integer digits, then the fraction's. */
    private final byte[] digits;

    private NumberTemplate(Node[] nodes, boolean fillMode) {
        this.nodes = nodes;
        this.fillMode = fillMode;
        int integers = 0;
        int fractions = 0;
        int firstZero = -1;
        int lastZero = 0;
        boolean afterPoint = false;
        boolean sawDigit = false;
        boolean signBeforeDigits = false;
        boolean sign = false;
        for (Node node : nodes) {
            switch (node.kind()) {
                case DIGIT_NINE, DIGIT_ZERO -> {
                    if (afterPoint) {
                        fractions++;
                        if (node.kind() == Kind.DIGIT_ZERO) {
                            lastZero = fractions;
                        }
                    } else {
                        if (node.kind() == Kind.DIGIT_ZERO && firstZero < 0) {
                            firstZero = integers;
                        }
                        integers++;
                    }
                    sawDigit = true;
                }
                case DECIMAL_POINT -> afterPoint = true;
                case SIGN -> {
                    sign = true;
                    signBeforeDigits |= !sawDigit;
                }
                case MINUS -> sign = true;
                case GROUP, LITERAL -> {
                }
            }
        }
        this.integerPositions = integers;
        this.fractionPositions = fractions;
        this.zeroStart = firstZero < 0 ? integers : firstZero;
        this.lastZeroFraction = lastZero;
        this.anyZero = firstZero >= 0 || lastZero > 0;
        this.explicitSign = sign;
        this.leadingAnchoredSign = signBeforeDigits;
        // A long's 20 digits and up to 18 zeros before its fraction, or the template's positions.
        this.digits = new byte[40 + integers + fractions];
    }

    public static NumberTemplate parse(String format) {
        List<Node> nodes = new ArrayList<>();
        boolean fillMode = false;
        boolean decimalPoint = false;
        StringBuilder literal = new StringBuilder();
        int index = 0;
        while (index < format.length()) {
            String rest = format.substring(index).toUpperCase(Locale.ROOT);
            char character = rest.charAt(0);
            Kind kind = null;
            int width = 1;
            if (rest.startsWith("FM")) {
                fillMode = true;
                index += 2;
                continue;
            }
            for (String refused : REFUSED) {
                if (rest.startsWith(refused)) {
                    throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "to_char pattern \"%s\" is not supported", refused);
                }
            }
            if (rest.startsWith("MI")) {
                kind = Kind.MINUS;
                width = 2;
            } else {
                switch (character) {
                    case '9' -> kind = Kind.DIGIT_NINE;
                    case '0' -> kind = Kind.DIGIT_ZERO;
                    case '.', 'D' -> {
                        if (decimalPoint) {
                            throw ParallaxException.of(SqlState.SYNTAX_ERROR, "multiple decimal points");
                        }
                        decimalPoint = true;
                        kind = Kind.DECIMAL_POINT;
                    }
                    case ',', 'G' -> kind = Kind.GROUP;
                    case 'S' -> kind = Kind.SIGN;
                    default -> {
                    }
                }
            }
            if (kind != null) {
                flush(literal, nodes);
                nodes.add(new Node(kind, null));
                index += width;
            } else if (character == '"') {
                index = DateTimeTemplate.quotedText(format, index, literal);
            } else {
                literal.append(format.charAt(index));
                index++;
            }
        }
        flush(literal, nodes);
        return new NumberTemplate(nodes.toArray(Node[]::new), fillMode);
    }

    private static void flush(StringBuilder literal, List<Node> nodes) {
        if (!literal.isEmpty()) {
            nodes.add(new Node(Kind.LITERAL, literal.toString().getBytes(StandardCharsets.UTF_8)));
            literal.setLength(0);
        }
    }

    /** Appends the exact number {@code unscaled / 10^scale} (an integer or a numeric), rounded half away from zero. */
    public void format(long unscaled, int scale, ByteBuilder out) {
        boolean negative = unscaled < 0;
        // Unsigned from here: the magnitude of Long.MIN_VALUE is 2^63.
        long magnitude = negative ? -unscaled : unscaled;
        int kept = scale;
        if (scale > fractionPositions) {
            // Parallax numerics hold at most 18 digits, so at most 18 are dropped: 10^drop fits a long.
            long divisor = 1;
            for (int drop = fractionPositions; drop < scale; drop++) {
                divisor *= 10;
            }
            long quotient = Long.divideUnsigned(magnitude, divisor);
            long remainder = Long.remainderUnsigned(magnitude, divisor);
            magnitude = Long.compareUnsigned(remainder, divisor - remainder) >= 0 ? quotient + 1 : quotient;
            kept = fractionPositions;
        }
        // Digits of the magnitude, least significant first into the end of the scratch.
        int count = 0;
        long rest = magnitude;
        do {
            digits[digits.length - 1 - count++] = (byte) ('0' + Long.remainderUnsigned(rest, 10));
            rest = Long.divideUnsigned(rest, 10);
        } while (rest != 0);
        while (count <= kept) {
            digits[digits.length - 1 - count++] = '0';
        }
        int integerDigits = count - kept;
        int start = digits.length - count;
        System.arraycopy(digits, start, digits, 0, count);
        for (int pad = kept; pad < fractionPositions; pad++) {
            digits[integerDigits + pad] = '0';
        }
        render(negative && magnitude != 0, integerDigits, fractionPositions, out);
    }

    /** Appends a double precision value: as PostgreSQL, at most 15 significant digits, rounded like printf. */
    public void format(double value, ByteBuilder out) {
        if (Double.isNaN(value) && integerPositions + fractionPositions >= 3) {
            // PostgreSQL writes NaN where the template has room for it, after the sign blank.
            if (!fillMode) {
                out.append((byte) ' ');
            }
            out.appendAscii("NaN");
            return;
        }
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            // Otherwise NaN, and the infinities always, fill every digit position with #.
            render(value < 0, Integer.MAX_VALUE, fractionPositions, out);
            return;
        }
        // A double's decimal expansion: through BigDecimal, the one allocation of this path (printf's exact rounding).
        BigDecimal exact = new BigDecimal(value).abs();
        int integerDigits = exact.compareTo(BigDecimal.ONE) < 0 ? 1 : exact.precision() - exact.scale();
        int fraction = integerDigits >= 15 ? 0 : Math.min(fractionPositions, 15 - integerDigits);
        String text = exact.setScale(fraction, RoundingMode.HALF_EVEN).toPlainString();
        int point = text.indexOf('.');
        int integerLength = point < 0 ? text.length() : point;
        if (integerLength > integerPositions) {
            render(value < 0, integerLength, fractionPositions, out);
            return;
        }
        for (int index = 0; index < integerLength; index++) {
            digits[index] = (byte) text.charAt(index);
        }
        for (int index = 0; index < fractionPositions; index++) {
            digits[integerLength + index] = index < fraction ? (byte) text.charAt(integerLength + 1 + index) : (byte) '0';
        }
        boolean zero = true;
        for (int index = 0; index < integerLength + fractionPositions; index++) {
            zero &= digits[index] == '0';
        }
        // PostgreSQL writes only the digits a double has: fraction positions past the 15th digit are left out.
        render(value < 0 && !zero, integerLength, fraction, out);
    }

    /**
     * Writes the template over {@code digits} (integerDigits of them before the point; MAX_VALUE: all
     * #), fraction positions from {@code writtenFractions} on left out.
     */
    private void render(boolean negative, int integerDigits, int writtenFractions, ByteBuilder out) {
        boolean overflow = integerDigits > integerPositions;
        int leadingSpaces = overflow ? 0 : integerPositions - integerDigits;
        // 0.5 under 9.99: the lone 0 before the point is a blank (FM: nothing), unless the template has a 0.
        boolean blankLeadingZero = !overflow && !anyZero && integerDigits == 1 && digits[0] == '0' && fractionPositions > 0;
        int lastFraction = Math.min(fractionPositions, writtenFractions);
        if (fillMode && !overflow) {
            while (lastFraction > lastZeroFraction && digits[integerDigits + lastFraction - 1] == '0') {
                lastFraction--;
            }
        }
        byte sign = negative ? (byte) '-' : (byte) '+';
        boolean signWritten = false;
        boolean numberStarted = false;
        int integerPosition = 0;
        int fractionPosition = 0;
        for (Node node : nodes) {
            switch (node.kind()) {
                case LITERAL -> out.append(node.literal(), 0, node.literal().length);
                case MINUS -> {
                    if (negative) {
                        out.append((byte) '-');
                    } else if (!fillMode) {
                        out.append((byte) ' ');
                    }
                }
                case SIGN -> {
                    if (!leadingAnchoredSign || integerPositions == 0 && fractionPositions == 0) {
                        out.append(sign);
                    }
                }
                case GROUP -> {
                    if (numberStarted) {
                        out.append((byte) ',');
                    } else if (!fillMode) {
                        out.append((byte) ' ');
                    }
                }
                case DECIMAL_POINT -> {
                    // No fraction digit to write (99. or a double's 15 digits all before the point): no point either.
                    if (writtenFractions > 0) {
                        if (!signWritten) {
                            signWritten = writeSign(out, sign);
                        }
                        numberStarted = true;
                        out.append((byte) '.');
                    }
                }
                case DIGIT_NINE, DIGIT_ZERO -> {
                    if (integerPosition < integerPositions) {
                        int position = integerPosition++;
                        if (overflow) {
                            if (!signWritten) {
                                signWritten = writeSign(out, sign);
                            }
                            out.append((byte) '#');
                        } else if (position < leadingSpaces && position < zeroStart) {
                            if (!fillMode) {
                                out.append((byte) ' ');
                            }
                        } else if (position == integerPositions - 1 && blankLeadingZero) {
                            if (!fillMode) {
                                out.append((byte) ' ');
                            }
                            if (!signWritten) {
                                signWritten = writeSign(out, sign);
                            }
                            if (fillMode && lastFraction == 0) {
                                out.append((byte) '0');
                            }
                        } else {
                            if (!signWritten) {
                                signWritten = writeSign(out, sign);
                            }
                            numberStarted = true;
                            out.append(position < leadingSpaces ? (byte) '0' : digits[position - leadingSpaces]);
                        }
                    } else {
                        int position = fractionPosition++;
                        if (position >= writtenFractions) {
                            continue;
                        }
                        if (overflow) {
                            out.append((byte) '#');
                        } else if (position < lastFraction) {
                            out.append(digits[integerDigits + position]);
                        } else if (!fillMode) {
                            out.append((byte) '0');
                        }
                    }
                }
            }
        }
    }

    /** The sign before the first character of the number: S's when anchored there, else the default blank or -. */
    private boolean writeSign(ByteBuilder out, byte sign) {
        if (leadingAnchoredSign) {
            out.append(sign);
        } else if (!explicitSign && (sign == '-' || !fillMode)) {
            out.append(sign == '-' ? (byte) '-' : (byte) ' ');
        }
        return true;
    }
}
