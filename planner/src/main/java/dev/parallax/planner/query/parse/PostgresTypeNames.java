package dev.parallax.planner.query.parse;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL type names in casts, spelled as Calcite's core parser reads them. Bit strings have no
 * Calcite type: BIT(n) travels as BINARY(n) and BIT VARYING(n) as VARBINARY(n), with n counting
 * bits (the engine has no bytea, so the mapping back is unambiguous; see TypeMapping).
 */
final class PostgresTypeNames {
    /** PostgreSQL's timestamp with time zone is Calcite's instant type (TypeMapping). */
    static final String TIMESTAMP_WITH_TIME_ZONE = "TIMESTAMP WITH LOCAL TIME ZONE";
    private static final Map<String, String> SIMPLE = Map.ofEntries(
            Map.entry("int", "INTEGER"), Map.entry("integer", "INTEGER"), Map.entry("int4", "INTEGER"),
            Map.entry("bigint", "BIGINT"), Map.entry("int8", "BIGINT"),
            Map.entry("smallint", "SMALLINT"), Map.entry("int2", "SMALLINT"),
            Map.entry("float8", "DOUBLE"), Map.entry("float", "DOUBLE"), Map.entry("double", "DOUBLE"),
            Map.entry("float4", "REAL"), Map.entry("real", "REAL"),
            Map.entry("bool", "BOOLEAN"), Map.entry("boolean", "BOOLEAN"),
            Map.entry("text", "VARCHAR"), Map.entry("varchar", "VARCHAR"),
            Map.entry("char", "CHAR"), Map.entry("character", "CHAR"), Map.entry("bpchar", "CHAR"),
            Map.entry("numeric", "DECIMAL"), Map.entry("decimal", "DECIMAL"),
            Map.entry("date", "DATE"), Map.entry("timestamp", "TIMESTAMP"),
            Map.entry("timestamptz", TIMESTAMP_WITH_TIME_ZONE),
            Map.entry("bit", "BINARY"), Map.entry("varbit", "VARBINARY"),
            Map.entry("uuid", "UUID"),
            // Object identifiers are bigint in Parallax's catalog views; name is text.
            Map.entry("oid", "BIGINT"), Map.entry("name", "VARCHAR"),
            // int2vector travels as TINYINT ARRAY (the engine has no tinyint; see TypeMapping); oidvector is an oid array.
            Map.entry("int2vector", "TINYINT ARRAY"), Map.entry("oidvector", "BIGINT ARRAY"));
    /** The object-identifier alias types, cast to by the catalog functions that look them up. */
    private static final Map<String, String> OBJECT_ALIASES = Map.of(
            "regclass", "pg_regclass", "regtype", "pg_regtype", "regnamespace", "pg_regnamespace", "regproc", "pg_regproc");

    /** PostgreSQL's unconstrained numeric has no Calcite equivalent within 18 digits: it becomes numeric(18,6). */
    static final String UNCONSTRAINED_NUMERIC = "DECIMAL(18, 6)";

    private PostgresTypeNames() {
    }

    /**
     * Reads a type name starting at {@code start} in {@code pieces} (words, then an optional
     * parenthesised modifier). Returns null when the pieces there do not name a type.
     */
    static TypeName read(List<Piece> pieces, int start) {
        int index = skipCatalogQualifier(pieces, skipSpace(pieces, start));
        if (index >= pieces.size() || !(pieces.get(index) instanceof Piece.Leaf first) || first.token().kind() != SqlToken.Kind.WORD) {
            return null;
        }
        String word = first.token().lowerText();
        int end = index + 1;
        String calciteName;
        if (word.equals("double") && nextWord(pieces, end, "precision") > 0) {
            end = nextWord(pieces, end, "precision");
            calciteName = "DOUBLE";
        } else if ((word.equals("bit") || word.equals("character") || word.equals("char")) && nextWord(pieces, end, "varying") > 0) {
            end = nextWord(pieces, end, "varying");
            calciteName = word.equals("bit") ? "VARBINARY" : "VARCHAR";
        } else {
            calciteName = SIMPLE.get(word);
            if (calciteName == null) {
                return null;
            }
        }
        Piece modifier = null;
        if (calciteName.equals("TIMESTAMP")) {
            // timestamp(p) with time zone: the precision comes before the zone words.
            int precisionIndex = skipSpace(pieces, end);
            if (precisionIndex < pieces.size() && pieces.get(precisionIndex) instanceof Piece.Group group
                    && group.open().kind() == SqlToken.Kind.LEFT_PARENTHESIS) {
                modifier = group;
                end = precisionIndex + 1;
            }
        }
        if (calciteName.equals("TIMESTAMP") && (nextWord(pieces, end, "without") > 0 || nextWord(pieces, end, "with") > 0)) {
            boolean with = nextWord(pieces, end, "with") > 0;
            int afterWith = with ? nextWord(pieces, end, "with") : nextWord(pieces, end, "without");
            int afterTime = nextWord(pieces, afterWith, "time");
            int afterZone = afterTime > 0 ? nextWord(pieces, afterTime, "zone") : -1;
            if (afterZone > 0) {
                end = afterZone;
                calciteName = with ? TIMESTAMP_WITH_TIME_ZONE : calciteName;
            }
        }
        int modifierIndex = skipSpace(pieces, end);
        if (modifier == null && modifierIndex < pieces.size() && pieces.get(modifierIndex) instanceof Piece.Group group
                && group.open().kind() == SqlToken.Kind.LEFT_PARENTHESIS) {
            modifier = group;
            end = modifierIndex + 1;
        }
        if (modifier == null && word.equals("bpchar")) {
            // bpchar without a length (pg_dump's DEFAULT 'FR'::bpchar of a char(2) column) neither pads
            // nor cuts: PostgreSQL's 'FR'::bpchar is 'FR', where char without a length is char(1).
            calciteName = "VARCHAR";
        } else if (modifier == null) {
            switch (calciteName) {
                case "DECIMAL" -> calciteName = UNCONSTRAINED_NUMERIC;
                case "BINARY", "CHAR" -> calciteName = calciteName + "(1)";
                default -> {
                }
            }
        }
        int afterBrackets = arrayBrackets(pieces, end);
        if (afterBrackets > 0) {
            // type[] and type[n]: a one-dimensional array (PostgreSQL ignores the declared size).
            return new TypeName(calciteName, modifier, afterBrackets, first.token().position(), true);
        }
        return new TypeName(calciteName, modifier, end, first.token().position(), false);
    }

    /**
     * The function a cast to an object-identifier alias type ({@code regclass}, {@code regtype},
     * {@code regnamespace}, optionally {@code pg_catalog.}-qualified) at {@code start} becomes, with
     * the index after the type name; null when the type there is not one of them.
     */
    static ObjectAlias readObjectAlias(List<Piece> pieces, int start) {
        int index = skipCatalogQualifier(pieces, skipSpace(pieces, start));
        if (index < pieces.size() && pieces.get(index) instanceof Piece.Leaf word && word.token().kind() == SqlToken.Kind.WORD) {
            String function = OBJECT_ALIASES.get(word.token().lowerText());
            if (function != null) {
                return new ObjectAlias(function, index + 1);
            }
        }
        return null;
    }

    /** A cast to an object-identifier alias type: the function it becomes and the index after the type name. */
    record ObjectAlias(String function, int end) {
    }

    /** Skips {@code pg_catalog.} before a type name: PostgreSQL's built-in types live there. */
    private static int skipCatalogQualifier(List<Piece> pieces, int index) {
        if (index + 2 < pieces.size() && pieces.get(index) instanceof Piece.Leaf schema && schema.token().isWord("pg_catalog")
                && pieces.get(index + 1) instanceof Piece.Leaf dot && dot.token().kind() == SqlToken.Kind.DOT) {
            return index + 2;
        }
        return index;
    }

    /** The index after {@code []} or {@code [n]} at {@code start}, or -1. */
    private static int arrayBrackets(List<Piece> pieces, int start) {
        int index = skipSpace(pieces, start);
        if (index >= pieces.size() || !(pieces.get(index) instanceof Piece.Leaf open) || !open.token().isOperator("[")) {
            return -1;
        }
        index = skipSpace(pieces, index + 1);
        if (index < pieces.size() && pieces.get(index) instanceof Piece.Leaf size && size.token().kind() == SqlToken.Kind.NUMBER) {
            index = skipSpace(pieces, index + 1);
        }
        if (index < pieces.size() && pieces.get(index) instanceof Piece.Leaf close && close.token().isOperator("]")) {
            return index + 1;
        }
        return -1;
    }

    private static int nextWord(List<Piece> pieces, int start, String word) {
        int index = skipSpace(pieces, start);
        if (index < pieces.size() && pieces.get(index) instanceof Piece.Leaf leaf && leaf.token().isWord(word)) {
            return index + 1;
        }
        return -1;
    }

    static int skipSpace(List<Piece> pieces, int start) {
        int index = start;
        while (index < pieces.size() && pieces.get(index) instanceof Piece.Leaf leaf && leaf.token().kind() == SqlToken.Kind.SPACE) {
            index++;
        }
        return index;
    }

    /** A type read from the pieces: Calcite's spelling, the modifier group if any, and the index after it. */
    record TypeName(String calciteName, Piece modifier, int end, int position, boolean array) {
        Piece toPiece() {
            String suffix = array ? " ARRAY" : "";
            if (modifier != null && calciteName.equals(TIMESTAMP_WITH_TIME_ZONE)) {
                // Calcite spells the precision before the zone words: TIMESTAMP(3) WITH LOCAL TIME ZONE.
                return new Piece.Composite(List.of("TIMESTAMP", modifier, " WITH LOCAL TIME ZONE" + suffix), position);
            }
            return modifier == null
                    ? new Piece.Composite(List.of(calciteName + suffix), position)
                    : new Piece.Composite(List.of(calciteName, modifier, suffix), position);
        }

        @Override
        public String toString() {
            return calciteName.toLowerCase(Locale.ROOT) + (array ? "[]" : "");
        }
    }
}
