package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.ByteBuilder;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.Utf8;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

/**
 * The pattern of {@code SIMILAR TO} turned into the regular expression PostgreSQL matches it with
 * (a port of regexp.c's similar_escape_internal, so {@code text SIMILAR TO pattern} is
 * {@code text ~ result}): anchored at both ends, {@code %} is {@code .*}, {@code _} is {@code .},
 * groups do not capture, {@code . \ ^ $} are literal, bracket expressions are copied, and the
 * escape character (a backslash unless given; none when empty) makes the next character literal,
 * {@code "} excepted (the separators of SUBSTRING's form, as PostgreSQL writes them). A constant
 * pattern is converted once, by folding. Strict: NULL in, NULL out; an escape of more than one
 * character is 22025.
 */
final class SimilarPatternEvaluator extends Evaluator {
    private static final byte[] BACKSLASH = {'\\'};

    private final Evaluator escape;
    private final Evaluator[] arguments;
    private final ColumnVector[] argumentVectors = new ColumnVector[2];
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    private final ByteBuilder buffer = new ByteBuilder();
    private final NonNullPositions nonNull = new NonNullPositions();

    /** {@code escape} null: the default, a backslash. */
    SimilarPatternEvaluator(Evaluator pattern, Evaluator escape) {
        super(DataType.TEXT);
        this.escape = escape;
        this.arguments = new Evaluator[] {pattern, escape};
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        count = nonNull.evaluateArguments(arguments, argumentVectors, input, selection, count, result);
        selection = nonNull.selection();
        if (count == 0) {
            return result;
        }
        BytesVector patterns = (BytesVector) argumentVectors[0];
        BytesVector escapes = escape == null ? null : (BytesVector) argumentVectors[1];
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            byte[] escapeData = escapes == null ? BACKSLASH : escapes.data();
            int escapeOffset = escapes == null ? 0 : escapes.offset(position);
            int escapeLength = escapes == null ? 1 : escapes.length(position);
            if (Utf8.characterCount(escapeData, escapeOffset, escapeLength) > 1) {
                throw new ParallaxException(SqlState.INVALID_ESCAPE_SEQUENCE, "invalid escape string")
                        .withHint("Escape string must be empty or one character.");
            }
            buffer.clear();
            convert(patterns.data(), patterns.offset(position), patterns.length(position), escapeData, escapeOffset, escapeLength);
            result.set(position, buffer.bytes(), 0, buffer.length());
        }
        return result;
    }

    private void convert(byte[] data, int offset, int length, byte[] escapeData, int escapeOffset, int escapeLength) {
        buffer.appendAscii("^(?:");
        boolean afterEscape = false;
        boolean inCharacterClass = false;
        int quotes = 0;
        int end = offset + length;
        for (int at = offset; at < end; ) {
            int characterEnd = Utf8.characterEnd(data, at, end);
            byte character = data[at];
            boolean escapeCharacter = escapeLength > 0 && characterEnd - at == escapeLength
                    && java.util.Arrays.equals(data, at, characterEnd, escapeData, escapeOffset, escapeOffset + escapeLength);
            if (characterEnd - at > 1 && !afterEscape && !escapeCharacter) {
                buffer.append(data, at, characterEnd - at);
            } else if (afterEscape) {
                if (character == '"' && !inCharacterClass) {
                    if (quotes == 0) {
                        buffer.appendAscii("){1,1}?(");
                    } else if (quotes == 1) {
                        buffer.appendAscii("){1,1}(?:");
                    } else {
                        throw new ParallaxException(SqlState.INVALID_ESCAPE_SEQUENCE,
                                "SQL regular expression may not contain more than two escape-double-quote separators");
                    }
                    quotes++;
                } else {
                    // Any character may be escaped, so POSIX class escapes such as \d stay available.
                    buffer.append((byte) '\\');
                    buffer.append(data, at, characterEnd - at);
                }
                afterEscape = false;
            } else if (escapeCharacter) {
                afterEscape = true;
            } else if (inCharacterClass) {
                if (character == '\\') {
                    buffer.append((byte) '\\');
                }
                buffer.append(character);
                inCharacterClass = character != ']';
            } else if (character == '[') {
                buffer.append(character);
                inCharacterClass = true;
            } else if (character == '%') {
                buffer.appendAscii(".*");
            } else if (character == '_') {
                buffer.append((byte) '.');
            } else if (character == '(') {
                buffer.appendAscii("(?:");
            } else if (character == '\\' || character == '.' || character == '^' || character == '$') {
                buffer.append((byte) '\\');
                buffer.append(character);
            } else {
                buffer.append(character);
            }
            at = characterEnd;
        }
        buffer.appendAscii(")$");
    }
}
