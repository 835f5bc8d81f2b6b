package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Arithmetic on DECIMAL values held as scaled longs (value * 10^scale). Rounding is half away
 * from zero, as PostgreSQL's numeric rounds; results that do not fit raise 22003
 * "numeric field overflow".
 */
public final class DecimalMath {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        long power = 1;
        for (int exponent = 0; exponent < POWERS_OF_TEN.length; exponent++) {
            POWERS_OF_TEN[exponent] = power;
            power *= 10;
        }
    }

    private DecimalMath() {
    }

    /** 10^exponent for exponent 0..18. */
    public static long powerOfTen(int exponent) {
        return POWERS_OF_TEN[exponent];
    }

    public static ParallaxException overflow() {
        return new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
    }

    /** The overflow error for a value that does not fit {@code numeric(precision, scale)}, with PostgreSQL's DETAIL. */
    public static ParallaxException precisionOverflow(int precision, int scale) {
        int integerDigits = precision - scale;
        String detail = integerDigits == 0
                ? String.format("A field with precision %d, scale %d must round to an absolute value less than 1.", precision, scale)
                : String.format("A field with precision %d, scale %d must round to an absolute value less than 10^%d.",
                        precision, scale, integerDigits);
        return overflow().withDetail(detail);
    }

    /** Multiplies by 10^exponent (exponent 0..18), raising 22003 on overflow. */
    public static long scaleUp(long value, int exponent) {
        if (exponent == 0) {
            return value;
        }
        long factor = exponent < POWERS_OF_TEN.length ? POWERS_OF_TEN[exponent] : 0;
        long high = Math.multiplyHigh(value, factor);
        long low = value * factor;
        if (factor == 0 || (high != 0 || low < 0) && (high != -1 || low >= 0)) {
            if (value == 0) {
                return 0;
            }
            throw overflow();
        }
        return low;
    }

    /** Divides by 10^exponent rounding half away from zero. */
    public static long scaleDown(long value, int exponent) {
        if (exponent == 0) {
            return value;
        }
        if (exponent >= POWERS_OF_TEN.length) {
            return 0;
        }
        return divideRounded(value, POWERS_OF_TEN[exponent]);
    }

    /** Changes the scale of a scaled long, rounding half away from zero when the scale shrinks. */
    public static long rescale(long value, int fromScale, int toScale) {
        return toScale >= fromScale ? scaleUp(value, toScale - fromScale) : scaleDown(value, fromScale - toScale);
    }

    /** {@code dividend / divisor} rounded half away from zero; divisor non-zero. */
    public static long divideRounded(long dividend, long divisor) {
        long quotient = dividend / divisor;
        long remainder = dividend % divisor;
        if (remainder != 0) {
            // |remainder| * 2 >= |divisor| without overflow: compare |remainder| with |divisor| - |remainder|.
            long absoluteRemainder = Math.abs(remainder);
            long absoluteDivisor = Math.abs(divisor);
            if (absoluteRemainder >= absoluteDivisor - absoluteRemainder) {
                quotient += ((dividend ^ divisor) < 0) ? -1 : 1;
            }
        }
        return quotient;
    }

    /** The product of two scaled longs whose scales add to {@code productScale}, at {@code resultScale}. */
    public static long multiply(long left, long right, int productScale, int resultScale) {
        long high = Math.multiplyHigh(left, right);
        long low = left * right;
        if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
            return rescale(low, productScale, resultScale);
        }
        BigDecimal product = BigDecimal.valueOf(left, 0).multiply(BigDecimal.valueOf(right, 0)).movePointLeft(productScale);
        return toScaledLong(product, resultScale);
    }

    /**
     * {@code left / right} where left has {@code leftScale} and right {@code rightScale}, at
     * {@code resultScale}, rounded half away from zero; right non-zero.
     */
    public static long divide(long left, int leftScale, long right, int rightScale, int resultScale) {
        int shift = resultScale - leftScale + rightScale;
        if (shift >= 0 && shift < POWERS_OF_TEN.length) {
            long factor = POWERS_OF_TEN[shift];
            long high = Math.multiplyHigh(left, factor);
            long low = left * factor;
            if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
                return divideRounded(low, right);
            }
        } else if (shift < 0 && -shift < POWERS_OF_TEN.length) {
            long factor = POWERS_OF_TEN[-shift];
            long high = Math.multiplyHigh(right, factor);
            long low = right * factor;
            if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
                return divideRounded(left, low);
            }
        }
        BigDecimal quotient = BigDecimal.valueOf(left, leftScale)
                .divide(BigDecimal.valueOf(right, rightScale), resultScale, RoundingMode.HALF_UP);
        return toScaledLong(quotient, resultScale);
    }

    /**
     * PostgreSQL's select_div_scale for {@code dividend / divisor} given as scaled longs: the
     * display scale PostgreSQL gives this quotient, aiming at 16 significant digits
     * (NUMERIC_MIN_SIG_DIGITS) from an estimate of the quotient's weight in base-10000 digits, and
     * at least either input's scale. Uncapped: callers holding 18 digits reduce it to what fits.
     */
    public static int divisionScale(long dividend, int dividendScale, long divisor, int divisorScale) {
        int dividendWeight = baseTenThousandWeight(dividend, dividendScale);
        int divisorWeight = baseTenThousandWeight(divisor, divisorScale);
        int quotientWeight = dividendWeight - divisorWeight;
        // Equal first digits cannot tell which operand is larger; PostgreSQL assumes the dividend is.
        if (firstBaseTenThousandDigit(dividend, dividendScale, dividendWeight)
                <= firstBaseTenThousandDigit(divisor, divisorScale, divisorWeight)) {
            quotientWeight--;
        }
        int scale = 16 - quotientWeight * 4;
        return Math.min(1000, Math.max(0, Math.max(scale, Math.max(dividendScale, divisorScale))));
    }

    /** The index of the leading non-zero base-10000 digit of value * 10^-scale (0 for zero), as PostgreSQL's weight. */
    private static int baseTenThousandWeight(long value, int scale) {
        if (value == 0) {
            return 0;
        }
        int decimalExponent = decimalDigits(value) - 1 - scale;
        return Math.floorDiv(decimalExponent, 4);
    }

    /** The leading base-10000 digit (1..9999) of value * 10^-scale at {@code weight}; 0 for zero. */
    private static long firstBaseTenThousandDigit(long value, int scale, int weight) {
        if (value == 0) {
            return 0;
        }
        BigInteger magnitude = BigInteger.valueOf(value).abs();
        int exponent = scale + 4 * weight;
        return exponent >= 0 ? magnitude.divide(BigInteger.TEN.pow(exponent)).longValueExact()
                : magnitude.multiply(BigInteger.TEN.pow(-exponent)).longValueExact();
    }

    private static int decimalDigits(long value) {
        return value == Long.MIN_VALUE ? 19 : Long.toString(Math.abs(value)).length();
    }

    /** Rounds {@code value} to {@code scale} (half away from zero) and returns the scaled long, or 22003. */
    public static long toScaledLong(BigDecimal value, int scale) {
        BigInteger unscaled = value.setScale(scale, RoundingMode.HALF_UP).unscaledValue();
        if (unscaled.bitLength() > 63) {
            throw overflow();
        }
        return unscaled.longValue();
    }

    /** Raises 22003 with PostgreSQL's DETAIL unless |value| < 10^(precision - scale) at the given scale. */
    public static long checkPrecision(long value, int precision, int scale) {
        if (precision < POWERS_OF_TEN.length) {
            long limit = POWERS_OF_TEN[precision];
            if (value >= limit || value <= -limit) {
                throw precisionOverflow(precision, scale);
            }
        }
        return value;
    }

    /** Appends a scaled long as PostgreSQL prints numeric: all {@code scale} fraction digits, no exponent. */
    public static void append(StringBuilder out, long value, int scale) {
        if (scale == 0) {
            out.append(value);
            return;
        }
        String digits;
        if (value < 0) {
            out.append('-');
            digits = value == Long.MIN_VALUE ? "9223372036854775808" : Long.toString(-value);
        } else {
            digits = Long.toString(value);
        }
        int integerDigits = digits.length() - scale;
        if (integerDigits <= 0) {
            out.append('0').append('.');
            for (int pad = integerDigits; pad < 0; pad++) {
                out.append('0');
            }
            out.append(digits);
        } else {
            out.append(digits, 0, integerDigits).append('.').append(digits, integerDigits, digits.length());
        }
    }

    /**
     * Parses numeric text (optional sign, digits with an optional point, optional exponent, blanks
     * around) into a scaled long at {@code scale}, rounding half away from zero, checking
     * {@code precision}. Plain forms are parsed without allocating; exponents go through BigDecimal.
     */
    public static long parse(String text, int precision, int scale) {
        int start = 0;
        int end = text.length();
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        int index = start;
        boolean negative = false;
        if (index < end && (text.charAt(index) == '+' || text.charAt(index) == '-')) {
            negative = text.charAt(index) == '-';
            index++;
        }
        long unscaled = 0;
        int significantDigits = 0;
        int fractionDigits = 0;
        boolean seenPoint = false;
        boolean seenDigit = false;
        boolean roundUp = false;
        boolean plain = true;
        for (; index < end; index++) {
            char character = text.charAt(index);
            if (character >= '0' && character <= '9') {
                seenDigit = true;
                if (seenPoint && fractionDigits >= scale) {
                    // First dropped digit decides rounding; later ones cannot change a half-away-from-zero result.
                    if (fractionDigits == scale) {
                        roundUp = character >= '5';
                    }
                    fractionDigits++;
                    continue;
                }
                if (unscaled != 0 || character != '0') {
                    significantDigits++;
                }
                if (significantDigits > 18) {
                    plain = false;
                    break;
                }
                unscaled = unscaled * 10 + (character - '0');
                if (seenPoint) {
                    fractionDigits++;
                }
            } else if (character == '.' && !seenPoint) {
                seenPoint = true;
            } else {
                plain = false;
                break;
            }
        }
        if (plain) {
            if (!seenDigit) {
                throw invalidNumeric(text);
            }
            int kept = Math.min(fractionDigits, scale);
            long value = scaleUp(unscaled, scale - kept);
            if (roundUp) {
                value++;
            }
            return checkPrecision(negative ? -value : value, precision, scale);
        }
        BigDecimal parsed;
        try {
            parsed = new BigDecimal(text.substring(start, end));
        } catch (NumberFormatException malformed) {
            throw invalidNumeric(text);
        }
        BigDecimal rounded = parsed.setScale(scale, RoundingMode.HALF_UP);
        if (rounded.precision() - rounded.scale() > precision - scale && rounded.signum() != 0) {
            throw precisionOverflow(precision, scale);
        }
        return checkPrecision(toScaledLong(rounded, scale), precision, scale);
    }

    private static ParallaxException invalidNumeric(String text) {
        return ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type numeric: \"%s\"", text);
    }
}
