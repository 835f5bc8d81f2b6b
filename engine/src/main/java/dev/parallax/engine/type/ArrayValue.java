package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The byte form of an ARRAY value (one dimension), whose element type the column's
 * {@link DataType#element()} gives:
 * <pre>
 *   int count | int lower bound | null bitmap, (count + 7) / 8 bytes, bit set = NULL
 *   LONG and DOUBLE elements: count x 8 bytes (a NULL element's slot is 0)
 *   BYTES elements: count x int end offset into the data that follows, then the data
 * </pre>
 * The form is canonical (one encoding per value), so equal arrays have equal bytes and
 * {@code =}/{@code <>} compare bytes. Subscripts are O(1). The text form is PostgreSQL's
 * ({@code {1,2,NULL}}, {@code [0:1]={1,2}} for another lower bound, {@code 1 2} for int2vector
 * and oidvector).
 */
public final class ArrayValue {
    /** Bytes before the null bitmap: count and lower bound. */
    public static final int HEADER_BYTES = 8;
    /** PostgreSQL's MaxArraySize: the most elements an array may hold. */
    private static final int MAXIMUM_ELEMENTS = 0x7ffffff;
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private ArrayValue() {
    }

    public static int count(byte[] data, int offset) {
        return (int) INT.get(data, offset);
    }

    public static int lowerBound(byte[] data, int offset) {
        return (int) INT.get(data, offset + 4);
    }

    /** True when the element at 0-based {@code index} is NULL. */
    public static boolean isNull(byte[] data, int offset, int index) {
        return (data[offset + HEADER_BYTES + (index >>> 3)] & (1 << (index & 7))) != 0;
    }

    private static int valuesStart(int offset, int count) {
        return offset + HEADER_BYTES + (count + 7) / 8;
    }

    /** The element at 0-based {@code index} of an array of LONG-represented elements. */
    public static long longAt(byte[] data, int offset, int index) {
        return (long) LONG.get(data, valuesStart(offset, count(data, offset)) + 8 * index);
    }

    /** The element at 0-based {@code index} of an array of DOUBLE-represented elements. */
    public static double doubleAt(byte[] data, int offset, int index) {
        return Double.longBitsToDouble(longAt(data, offset, index));
    }

    /** Where the bytes of the element at 0-based {@code index} start (arrays of BYTES-represented elements). */
    public static int bytesOffset(byte[] data, int offset, int index) {
        int count = count(data, offset);
        int ends = valuesStart(offset, count);
        int start = index == 0 ? 0 : (int) INT.get(data, ends + 4 * (index - 1));
        return ends + 4 * count + start;
    }

    /** The length of the element at 0-based {@code index} (arrays of BYTES-represented elements). */
    public static int bytesLength(byte[] data, int offset, int index) {
        int ends = valuesStart(offset, count(data, offset));
        int start = index == 0 ? 0 : (int) INT.get(data, ends + 4 * (index - 1));
        return (int) INT.get(data, ends + 4 * index) - start;
    }

    /** The total length of the encoded array starting at {@code offset}. */
    public static int encodedLength(byte[] data, int offset, VectorKind elementKind) {
        int count = count(data, offset);
        int start = valuesStart(offset, count) - offset;
        if (elementKind != VectorKind.BYTES) {
            return start + 8 * count;
        }
        return start + 4 * count + (count == 0 ? 0 : (int) INT.get(data, offset + start + 4 * (count - 1)));
    }

    /** The element at 0-based {@code index} as the engine's object form (Long, Double, byte[]), null for NULL. */
    public static Object element(DataType arrayType, byte[] data, int offset, int index) {
        if (isNull(data, offset, index)) {
            return null;
        }
        return switch (arrayType.element().vectorKind()) {
            case LONG -> longAt(data, offset, index);
            case DOUBLE -> doubleAt(data, offset, index);
            case BYTES -> {
                int start = bytesOffset(data, offset, index);
                yield Arrays.copyOfRange(data, start, start + bytesLength(data, offset, index));
            }
        };
    }

    /** Collects elements and encodes them; one builder per array type, reusable after {@link #build}. */
    public static final class Builder {
        private final VectorKind elementKind;
        private long[] longs = new long[8];
        private boolean[] nulls = new boolean[8];
        /** The BYTES elements' data, {@link #byteCount} of it in use. */
        private byte[] bytes = new byte[64];
        private int byteCount;
        private int[] ends = new int[8];
        private int count;

        public Builder(DataType arrayType) {
            this.elementKind = arrayType.element().vectorKind();
        }

        public int count() {
            return count;
        }

        private int next() {
            if (count == MAXIMUM_ELEMENTS) {
                throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED,
                        "array size exceeds the maximum allowed (%d)", MAXIMUM_ELEMENTS);
            }
            if (count == nulls.length) {
                nulls = Arrays.copyOf(nulls, count * 2);
                longs = Arrays.copyOf(longs, count * 2);
                ends = Arrays.copyOf(ends, count * 2);
            }
            return count++;
        }

        public void addNull() {
            int index = next();
            nulls[index] = true;
            longs[index] = 0;
            ends[index] = byteCount;
        }

        public void addLong(long value) {
            int index = next();
            nulls[index] = false;
            longs[index] = value;
        }

        public void addDouble(double value) {
            addLong(Double.doubleToRawLongBits(value));
        }

        public void addBytes(byte[] data, int offset, int length) {
            int index = next();
            nulls[index] = false;
            if (byteCount + length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, byteCount + length));
            }
            System.arraycopy(data, offset, bytes, byteCount, length);
            byteCount += length;
            ends[index] = byteCount;
        }

        /** Adds an element in the engine's object form (Long, Double, byte[]; null for NULL). */
        public void add(Object value) {
            switch (value) {
                case null -> addNull();
                case Long number -> addLong(number);
                case Double number -> addDouble(number);
                case byte[] data -> addBytes(data, 0, data.length);
                default -> throw new IllegalArgumentException("not an engine value: " + value.getClass());
            }
        }

        /** Adds the element at 0-based {@code index} of the encoded array at {@code offset} (same element type). */
        public void addFrom(byte[] data, int offset, int index) {
            if (isNull(data, offset, index)) {
                addNull();
            } else if (elementKind == VectorKind.BYTES) {
                addBytes(data, bytesOffset(data, offset, index), bytesLength(data, offset, index));
            } else {
                addLong(longAt(data, offset, index));
            }
        }

        /** The encoded array, subscripts starting at {@code lowerBound}; the builder is then empty. */
        public byte[] build(int lowerBound) {
            byte[] encoded = new byte[encodedSize()];
            encode(encoded, 0, lowerBound);
            return encoded;
        }

        /**
         * Writes the encoded array (subscripts from {@code lowerBound}) as the value of {@code target}
         * at {@code position}, straight into the vector's heap: no array object per value. The
         * builder is then empty.
         */
        public void buildInto(dev.parallax.engine.vector.BytesVector target, int position, int lowerBound) {
            int at = target.reserve(position, encodedSize());
            encode(target.data(), at, lowerBound);
        }

        private int encodedSize() {
            return HEADER_BYTES + (count + 7) / 8 + (elementKind == VectorKind.BYTES ? 4 * count + byteCount : 8 * count);
        }

        private void encode(byte[] encoded, int at, int lowerBound) {
            int bitmap = (count + 7) / 8;
            INT.set(encoded, at, count);
            INT.set(encoded, at + 4, count == 0 ? 1 : lowerBound);
            Arrays.fill(encoded, at + HEADER_BYTES, at + HEADER_BYTES + bitmap, (byte) 0);
            for (int index = 0; index < count; index++) {
                if (nulls[index]) {
                    encoded[at + HEADER_BYTES + (index >>> 3)] |= (byte) (1 << (index & 7));
                }
            }
            int values = at + HEADER_BYTES + bitmap;
            if (elementKind == VectorKind.BYTES) {
                for (int index = 0; index < count; index++) {
                    INT.set(encoded, values + 4 * index, ends[index]);
                }
                System.arraycopy(bytes, 0, encoded, values + 4 * count, byteCount);
            } else {
                for (int index = 0; index < count; index++) {
                    LONG.set(encoded, values + 8 * index, longs[index]);
                }
            }
            count = 0;
            byteCount = 0;
        }
    }

    /**
     * Parses PostgreSQL's text form of an array of {@code arrayType}: {@code {a,b,"c d",NULL}},
     * optionally preceded by {@code [lower:upper]=}; int2vector and oidvector take
     * blank-separated numbers. Errors: 22P02 "malformed array literal", the element type's own
     * input errors, 0A000 for more than one dimension.
     */
    public static byte[] parse(DataType arrayType, String text) {
        return parse(arrayType, text, SessionTimeZone.UTC);
    }

    /** {@link #parse(DataType, String)} reading timestamp with time zone elements without their own zone in {@code zone}. */
    public static byte[] parse(DataType arrayType, String text, SessionTimeZone zone) {
        Builder builder = new Builder(arrayType);
        DataType elementType = arrayType.element();
        if (arrayType.isVector()) {
            for (String part : text.strip().split("\\s+")) {
                if (!part.isEmpty()) {
                    builder.add(ValueText.parse(elementType, part, zone));
                }
            }
            return builder.build(0);
        }
        int length = text.length();
        int position = skipBlanks(text, 0);
        int lowerBound = 1;
        int upperBound = Integer.MIN_VALUE;
        if (position < length && text.charAt(position) == '[') {
            // PostgreSQL's dimension syntax: [lower:upper] or [upper] (lower bound 1), signed digits only.
            int start = position + 1;
            int end = signedDigitsEnd(text, start);
            if (end == start) {
                throw malformed(text, "\"[\" must introduce explicitly-specified array dimensions.");
            }
            if (end < length && text.charAt(end) == ':') {
                lowerBound = dimension(text, start, end);
                start = end + 1;
                end = signedDigitsEnd(text, start);
                if (end == start) {
                    throw malformed(text, "Missing array dimension value.");
                }
            }
            if (end >= length || text.charAt(end) != ']') {
                throw malformed(text, "Missing \"]\" after array dimensions.");
            }
            upperBound = dimension(text, start, end);
            if (upperBound < lowerBound) {
                throw ParallaxException.of(SqlState.ARRAY_SUBSCRIPT_ERROR, "upper bound cannot be less than lower bound");
            }
            position = skipBlanks(text, end + 1);
            if (position < length && text.charAt(position) == '[') {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "multidimensional arrays are not supported: Parallax arrays have one dimension");
            }
            if (position >= length || text.charAt(position) != '=') {
                throw malformed(text, "Missing \"=\" after array dimensions.");
            }
            position = skipBlanks(text, position + 1);
            if (position >= length || text.charAt(position) != '{') {
                throw malformed(text, "Array contents must start with \"{\".");
            }
        }
        if (position >= length || text.charAt(position) != '{') {
            throw malformed(text, "Array value must start with \"{\" or dimension information.");
        }
        position = skipBlanks(text, position + 1);
        StringBuilder element = new StringBuilder();
        if (position < length && text.charAt(position) == '}') {
            position++;
        } else {
            while (true) {
                if (position >= length) {
                    throw malformed(text, "Unexpected end of input.");
                }
                char first = text.charAt(position);
                if (first == '{') {
                    throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                            "multidimensional arrays are not supported: Parallax arrays have one dimension");
                }
                if (first == ',' || first == '}') {
                    throw malformed(text, "Unexpected \"" + first + "\" character.");
                }
                element.setLength(0);
                boolean quoted = false;
                boolean escaped = false;
                // An element: quoted and unquoted runs, backslash escapes; blanks outside quotes are kept
                // only between non-blank characters.
                int trailingBlanks = 0;
                while (position < length) {
                    char character = text.charAt(position);
                    if (character == '\\') {
                        if (position + 1 >= length) {
                            throw malformed(text, "Unexpected end of input.");
                        }
                        element.append(text.charAt(position + 1));
                        escaped = true;
                        trailingBlanks = 0;
                        position += 2;
                        continue;
                    }
                    if (character == '"') {
                        int close = position + 1;
                        while (close < length && text.charAt(close) != '"') {
                            if (text.charAt(close) == '\\' && close + 1 < length) {
                                close++;
                            }
                            element.append(text.charAt(close));
                            close++;
                        }
                        if (close >= length) {
                            throw malformed(text, "Unexpected end of input.");
                        }
                        quoted = true;
                        trailingBlanks = 0;
                        position = close + 1;
                        continue;
                    }
                    if (character == ',' || character == '}') {
                        break;
                    }
                    if (character == '{') {
                        throw malformed(text, "Unexpected \"{\" character.");
                    }
                    if (Character.isWhitespace(character)) {
                        trailingBlanks++;
                    } else {
                        trailingBlanks = 0;
                    }
                    element.append(character);
                    position++;
                }
                if (position >= length) {
                    throw malformed(text, "Unexpected end of input.");
                }
                element.setLength(element.length() - trailingBlanks);
                String value = element.toString();
                if (!quoted && !escaped && value.equalsIgnoreCase("NULL")) {
                    builder.addNull();
                } else {
                    builder.add(ValueText.parse(elementType, value, zone));
                }
                char separator = text.charAt(position);
                position = skipBlanks(text, position + 1);
                if (separator == '}') {
                    break;
                }
            }
        }
        if (skipBlanks(text, position) < length) {
            throw malformed(text, "Junk after closing right brace.");
        }
        if (upperBound != Integer.MIN_VALUE && (long) upperBound - lowerBound + 1 != builder.count()) {
            throw malformed(text, "Specified array dimensions do not match array contents.");
        }
        return builder.build(lowerBound);
    }

    /** The end of the run of digits and signs starting at {@code start} (PostgreSQL reads a bound from it). */
    private static int signedDigitsEnd(String text, int start) {
        int end = start;
        while (end < text.length() && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '-' || text.charAt(end) == '+')) {
            end++;
        }
        return end;
    }

    /** A dimension bound; one out of int range, or malformed signs, cannot match any contents. */
    private static int dimension(String text, int start, int end) {
        try {
            return Integer.parseInt(text, start, end, 10);
        } catch (NumberFormatException unreadable) {
            throw malformed(text, "Specified array dimensions do not match array contents.");
        }
    }

    private static int skipBlanks(String text, int position) {
        while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
            position++;
        }
        return position;
    }

    private static ParallaxException malformed(String text, String detail) {
        return ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION, "malformed array literal: \"%s\"", text)
                .withDetail(detail);
    }

    /** Appends the text form of the encoded array at {@code offset}, as PostgreSQL's array_out prints it. */
    public static void append(StringBuilder out, DataType arrayType, byte[] data, int offset) {
        append(out, arrayType, data, offset, SessionTimeZone.UTC);
    }

    /** {@link #append(StringBuilder, DataType, byte[], int)} printing timestamp with time zone elements in {@code zone}. */
    public static void append(StringBuilder out, DataType arrayType, byte[] data, int offset, SessionTimeZone zone) {
        int count = count(data, offset);
        DataType elementType = arrayType.element();
        if (arrayType.isVector()) {
            for (int index = 0; index < count; index++) {
                if (index > 0) {
                    out.append(' ');
                }
                out.append(longAt(data, offset, index));
            }
            return;
        }
        int lowerBound = lowerBound(data, offset);
        if (lowerBound != 1 && count > 0) {
            out.append('[').append(lowerBound).append(':').append(lowerBound + count - 1).append("]=");
        }
        out.append('{');
        StringBuilder element = new StringBuilder();
        for (int index = 0; index < count; index++) {
            if (index > 0) {
                out.append(',');
            }
            if (isNull(data, offset, index)) {
                out.append("NULL");
                continue;
            }
            element.setLength(0);
            appendElement(element, elementType, data, offset, index, zone);
            appendQuotedIfNeeded(out, element);
        }
        out.append('}');
    }

    /** The text form of the encoded array. */
    public static String toText(DataType arrayType, byte[] data, int offset) {
        StringBuilder out = new StringBuilder();
        append(out, arrayType, data, offset);
        return out.toString();
    }

    /** Appends the text form of the (non-null) element at 0-based {@code index}, unquoted. */
    public static void appendElement(StringBuilder out, DataType elementType, byte[] data, int offset, int index) {
        appendElement(out, elementType, data, offset, index, SessionTimeZone.UTC);
    }

    /** Appends the text form of the (non-null) element at 0-based {@code index}, unquoted, a timestamp with time zone in {@code zone}. */
    public static void appendElement(StringBuilder out, DataType elementType, byte[] data, int offset, int index, SessionTimeZone zone) {
        switch (elementType.vectorKind()) {
            case LONG -> ValueText.appendLong(out, elementType, longAt(data, offset, index), zone);
            case DOUBLE -> ValueText.appendDouble(out, elementType, doubleAt(data, offset, index));
            case BYTES -> ValueText.appendBytes(out, elementType, data, bytesOffset(data, offset, index),
                    bytesLength(data, offset, index));
        }
    }

    private static void appendQuotedIfNeeded(StringBuilder out, CharSequence element) {
        boolean quote = element.isEmpty() || element.toString().equalsIgnoreCase("NULL");
        for (int index = 0; index < element.length() && !quote; index++) {
            char character = element.charAt(index);
            quote = character == '{' || character == '}' || character == ',' || character == '"' || character == '\\'
                    || Character.isWhitespace(character);
        }
        if (!quote) {
            out.append(element);
            return;
        }
        out.append('"');
        for (int index = 0; index < element.length(); index++) {
            char character = element.charAt(index);
            if (character == '"' || character == '\\') {
                out.append('\\');
            }
            out.append(character);
        }
        out.append('"');
    }
}
