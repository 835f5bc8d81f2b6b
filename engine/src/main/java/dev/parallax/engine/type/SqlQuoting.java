package dev.parallax.engine.type;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * PostgreSQL's quoting of a value for SQL text (quote_ident, quote_literal, format's %I and %L),
 * appended from UTF-8 bytes in place.
 */
public final class SqlQuoting {
    /**
     * PostgreSQL 15's keywords that are not unreserved ({@code pg_get_keywords()} with catcode other
     * than U): an identifier spelled like one must be quoted. Sorted, compared as bytes.
     */
    private static final byte[][] KEYWORDS = Arrays.stream(("all analyse analyze and any array as asc asymmetric authorization"
                    + " between bigint binary bit boolean both case cast char character check coalesce collate collation column"
                    + " concurrently constraint create cross current_catalog current_date current_role current_schema current_time"
                    + " current_timestamp current_user dec decimal default deferrable desc distinct do else end except exists"
                    + " extract false fetch float for foreign freeze from full grant greatest group grouping having ilike in"
                    + " initially inner inout int integer intersect interval into is isnull join lateral leading least left like"
                    + " limit localtime localtimestamp national natural nchar none normalize not notnull null nullif numeric"
                    + " offset on only or order out outer overlaps overlay placing position precision primary real references"
                    + " returning right row select session_user setof similar smallint some substring symmetric table"
                    + " tablesample then time timestamp to trailing treat trim true union unique user using values varchar"
                    + " variadic verbose when where window with xmlattributes xmlconcat xmlelement xmlexists xmlforest"
                    + " xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable").split(" "))
            .map(word -> word.getBytes(StandardCharsets.US_ASCII)).sorted(Arrays::compare).toArray(byte[][]::new);

    private SqlQuoting() {
    }

    /**
     * Appends {@code data[offset, offset + length)} as PostgreSQL's quote_identifier writes it: as it
     * is when it is lower-case letters, digits and underscores not starting with a digit and not a
     * reserved (or column-name or type-function-name) keyword; otherwise in double quotes, each
     * double quote doubled.
     */
    public static void appendIdentifier(ByteBuilder out, byte[] data, int offset, int length) {
        boolean safe = length > 0 && (data[offset] >= 'a' && data[offset] <= 'z' || data[offset] == '_');
        for (int index = offset; index < offset + length && safe; index++) {
            byte character = data[index];
            safe = character >= 'a' && character <= 'z' || character >= '0' && character <= '9' || character == '_';
        }
        if (safe && isKeyword(data, offset, length)) {
            safe = false;
        }
        if (safe) {
            out.append(data, offset, length);
            return;
        }
        out.append((byte) '"');
        for (int index = offset; index < offset + length; index++) {
            if (data[index] == '"') {
                out.append((byte) '"');
            }
            out.append(data[index]);
        }
        out.append((byte) '"');
    }

    /**
     * Appends the value as PostgreSQL's quote_literal_cstr writes it: in single quotes, quotes and
     * backslashes doubled, and an E before the opening quote when it holds a backslash.
     */
    public static void appendLiteral(ByteBuilder out, byte[] data, int offset, int length) {
        for (int index = offset; index < offset + length; index++) {
            if (data[index] == '\\') {
                out.append((byte) 'E');
                break;
            }
        }
        out.append((byte) '\'');
        for (int index = offset; index < offset + length; index++) {
            byte character = data[index];
            if (character == '\'' || character == '\\') {
                out.append(character);
            }
            out.append(character);
        }
        out.append((byte) '\'');
    }

    private static boolean isKeyword(byte[] data, int offset, int length) {
        int low = 0;
        int high = KEYWORDS.length - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int order = Arrays.compare(KEYWORDS[middle], 0, KEYWORDS[middle].length, data, offset, offset + length);
            if (order == 0) {
                return true;
            }
            if (order < 0) {
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return false;
    }
}
