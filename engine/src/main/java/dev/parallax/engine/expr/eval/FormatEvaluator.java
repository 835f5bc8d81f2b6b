package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.ByteBuilder;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.SqlQuoting;
import dev.parallax.engine.type.Utf8;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.nio.charset.StandardCharsets;

/**
 * PostgreSQL's {@code format(format, value, ...)}, a port of varlena.c's text_format: {@code %s}
 * (the value's text, empty for NULL), {@code %I} (quoted as an identifier; 22004 for NULL),
 * {@code %L} (quoted as a literal, {@code NULL} unquoted for NULL), {@code %%}; an argument
 * position {@code %2$s}, the flag {@code -}, a width in characters {@code %10s} or taken from an
 * argument {@code %*s} / {@code %*2$s} (negative: left-aligned; NULL: none). Malformed formats fail
 * with PostgreSQL's 22023 messages. NULL format: NULL. The values arrive as their text forms; the
 * result is built in a reused buffer.
 */
final class FormatEvaluator extends Evaluator {
    private static final String SINGLE_PERCENT_HINT = "For a single \"%\" use \"%%\".";
    private static final byte[] NULL_TEXT = {'N', 'U', 'L', 'L'};

    private final Evaluator format;
    private final Evaluator[] values;
    private final BytesVector[] valueVectors;
    private final boolean[][] valueNulls;
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    private final ByteBuilder buffer = new ByteBuilder();
    private final ByteBuilder quoted = new ByteBuilder();
    /** The specifier being parsed: the argument position (0: the next), width position (-1: none, 0: the next), flags, width. */
    private int argumentPosition;
    private int widthPosition;
    private boolean leftAligned;
    private int width;

    /** {@code format} and {@code values} are text. */
    FormatEvaluator(Evaluator format, Evaluator[] values) {
        super(DataType.TEXT);
        this.format = format;
        this.values = values;
        this.valueVectors = new BytesVector[values.length];
        this.valueNulls = new boolean[values.length][];
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        ColumnVector formats = format.evaluate(input, selection, count);
        boolean[] formatNulls = nullsOf(formats);
        for (int value = 0; value < values.length; value++) {
            ColumnVector vector = values[value].evaluate(input, selection, count);
            valueNulls[value] = nullsOf(vector);
            valueVectors[value] = vector instanceof BytesVector bytes ? bytes : null;
        }
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(formatNulls, position)) {
                result.setNull(position);
                continue;
            }
            BytesVector formatText = (BytesVector) formats;
            buffer.clear();
            format(formatText.data(), formatText.offset(position), formatText.offset(position) + formatText.length(position), position);
            result.set(position, buffer.bytes(), 0, buffer.length());
        }
        return result;
    }

    private void format(byte[] text, int start, int end, int position) {
        int argument = 0;
        for (int at = start; at < end; at++) {
            if (text[at] != '%') {
                buffer.append(text[at]);
                continue;
            }
            at = advance(at, end);
            if (text[at] == '%') {
                buffer.append((byte) '%');
                continue;
            }
            at = parseSpecifier(text, at, end);
            byte conversion = text[at];
            if (conversion != 's' && conversion != 'I' && conversion != 'L') {
                String specifier = new String(text, at, Utf8.characterEnd(text, at, end) - at, StandardCharsets.UTF_8);
                throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "unrecognized format() type specifier \"%s\"", specifier)
                        .withHint(SINGLE_PERCENT_HINT);
            }
            int specifierWidth = width;
            boolean specifierLeftAligned = leftAligned;
            if (widthPosition >= 0) {
                argument = widthPosition > 0 ? widthPosition : argument + 1;
                if (argument > values.length) {
                    throw tooFewArguments();
                }
                specifierWidth = isNull(valueNulls[argument - 1], position) ? 0 : integer(valueVectors[argument - 1], position);
            }
            argument = argumentPosition > 0 ? argumentPosition : argument + 1;
            if (argument > values.length) {
                throw tooFewArguments();
            }
            if (specifierWidth < 0) {
                if (specifierWidth == Integer.MIN_VALUE) {
                    throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "number is out of range");
                }
                specifierLeftAligned = true;
                specifierWidth = -specifierWidth;
            }
            convert(conversion, argument - 1, position, specifierWidth, specifierLeftAligned);
        }
    }

    /**
     * Reads an argument position, flags and a width after a {@code %} (PostgreSQL's
     * text_format_parse_format) into the specifier fields and returns the index of the conversion
     * character.
     */
    private int parseSpecifier(byte[] text, int at, int end) {
        argumentPosition = 0;
        widthPosition = -1;
        leftAligned = false;
        width = 0;
        if (isDigit(text[at])) {
            int digitsEnd = digitsEnd(text, at, end);
            int number = digits(text, at, digitsEnd);
            at = digitsEnd;
            if (text[at] != '$') {
                width = number;
                return at;
            }
            if (number == 0) {
                throw argumentZero();
            }
            argumentPosition = number;
            at = advance(at, end);
        }
        while (text[at] == '-') {
            leftAligned = true;
            at = advance(at, end);
        }
        if (text[at] == '*') {
            at = advance(at, end);
            if (isDigit(text[at])) {
                int digitsEnd = digitsEnd(text, at, end);
                int number = digits(text, at, digitsEnd);
                at = digitsEnd;
                if (text[at] != '$') {
                    throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "width argument position must be ended by \"$\"");
                }
                if (number == 0) {
                    throw argumentZero();
                }
                widthPosition = number;
                at = advance(at, end);
            } else {
                widthPosition = 0;
            }
        } else if (isDigit(text[at])) {
            int digitsEnd = digitsEnd(text, at, end);
            width = digits(text, at, digitsEnd);
            at = digitsEnd;
        }
        return at;
    }

    private void convert(byte conversion, int value, int position, int specifierWidth, boolean specifierLeftAligned) {
        BytesVector vector = valueVectors[value];
        if (isNull(valueNulls[value], position)) {
            if (conversion == 'I') {
                throw new ParallaxException(SqlState.NULL_VALUE_NOT_ALLOWED, "null values cannot be formatted as an SQL identifier");
            }
            appendAligned(NULL_TEXT, 0, conversion == 'L' ? NULL_TEXT.length : 0, specifierWidth, specifierLeftAligned);
            return;
        }
        byte[] data = vector.data();
        int offset = vector.offset(position);
        int length = vector.length(position);
        if (conversion == 's') {
            appendAligned(data, offset, length, specifierWidth, specifierLeftAligned);
            return;
        }
        quoted.clear();
        if (conversion == 'I') {
            SqlQuoting.appendIdentifier(quoted, data, offset, length);
        } else {
            SqlQuoting.appendLiteral(quoted, data, offset, length);
        }
        appendAligned(quoted.bytes(), 0, quoted.length(), specifierWidth, specifierLeftAligned);
    }

    /** Appends the text padded with spaces to {@code specifierWidth} characters, on the right when left-aligned. */
    private void appendAligned(byte[] data, int offset, int length, int specifierWidth, boolean specifierLeftAligned) {
        int padding = specifierWidth == 0 ? 0 : Math.max(0, specifierWidth - Utf8.characterCount(data, offset, length));
        if (!specifierLeftAligned) {
            appendSpaces(padding);
        }
        buffer.append(data, offset, length);
        if (specifierLeftAligned) {
            appendSpaces(padding);
        }
    }

    private void appendSpaces(int count) {
        for (int space = 0; space < count; space++) {
            buffer.append((byte) ' ');
        }
    }

    /** A width argument's value: its text read as PostgreSQL's int4in reads it. */
    private static int integer(BytesVector vector, int position) {
        String text = vector.getString(position).strip();
        try {
            return Integer.parseInt(text.startsWith("+") ? text.substring(1) : text);
        } catch (NumberFormatException notInteger) {
            if (text.matches("[+-]?[0-9]+")) {
                throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"%s\" is out of range for type integer",
                        vector.getString(position));
            }
            throw ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type integer: \"%s\"",
                    vector.getString(position));
        }
    }

    /** The index after {@code at}; PostgreSQL's ADVANCE_PARSE_POINTER: the format may not end inside a specifier. */
    private static int advance(int at, int end) {
        if (at + 1 >= end) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "unterminated format() type specifier")
                    .withHint(SINGLE_PERCENT_HINT);
        }
        return at + 1;
    }

    /** The end of the run of digits at {@code at}; the format may not end inside it. */
    private static int digitsEnd(byte[] text, int at, int end) {
        while (isDigit(text[at])) {
            at = advance(at, end);
        }
        return at;
    }

    private static int digits(byte[] text, int start, int end) {
        int value = 0;
        for (int at = start; at < end; at++) {
            int digit = text[at] - '0';
            if (value > (Integer.MAX_VALUE - digit) / 10) {
                throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "number is out of range");
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private static boolean isDigit(byte value) {
        return value >= '0' && value <= '9';
    }

    private static ParallaxException tooFewArguments() {
        return new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "too few arguments for format()");
    }

    private static ParallaxException argumentZero() {
        return new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "format specifies argument 0, but arguments are numbered from 1");
    }
}
