package dev.parallax.engine.catalog;

import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which pairs of column types a foreign key accepts, against PostgreSQL 15: every ordered pair of
 * the types below was declared there ({@code create table p (x <referenced> primary key); create
 * table c (x <referencing> references p)}) and the pairs it accepted are listed in {@link #ACCEPTED}.
 */
class KeyPairingTest {
    private static final Map<String, DataType> TYPES = new LinkedHashMap<>();

    static {
        TYPES.put("smallint", DataType.SMALLINT);
        TYPES.put("integer", DataType.INTEGER);
        TYPES.put("bigint", DataType.BIGINT);
        TYPES.put("numeric(10,2)", DataType.decimal(10, 2));
        TYPES.put("numeric(10,3)", DataType.decimal(10, 3));
        TYPES.put("real", DataType.REAL);
        TYPES.put("double precision", DataType.DOUBLE);
        TYPES.put("text", DataType.TEXT);
        TYPES.put("varchar(5)", DataType.varchar(5));
        TYPES.put("char(3)", DataType.charType(3));
        TYPES.put("date", DataType.DATE);
        TYPES.put("timestamp", DataType.TIMESTAMP);
        TYPES.put("timestamptz", DataType.TIMESTAMPTZ);
        TYPES.put("boolean", DataType.BOOLEAN);
        TYPES.put("uuid", DataType.UUID);
        TYPES.put("bit(3)", DataType.bit(3));
        TYPES.put("varbit", DataType.VARBIT);
        TYPES.put("int[]", DataType.array(DataType.INTEGER));
        TYPES.put("bigint[]", DataType.array(DataType.BIGINT));
        TYPES.put("text[]", DataType.array(DataType.TEXT));
    }

    /** PostgreSQL 15's accepted pairs of different types, as referencing|referenced. */
    private static final Set<String> ACCEPTED = Set.of(
            "integer|bigint", "smallint|bigint", "varbit|bit(3)", "text|char(3)", "varchar(5)|char(3)", "timestamptz|date",
            "timestamp|date", "bigint|double precision", "integer|double precision", "numeric(10,2)|double precision",
            "numeric(10,3)|double precision", "real|double precision", "smallint|double precision", "bigint|integer",
            "smallint|integer", "bigint|numeric(10,2)", "integer|numeric(10,2)", "numeric(10,3)|numeric(10,2)",
            "smallint|numeric(10,2)", "bigint|numeric(10,3)", "integer|numeric(10,3)", "numeric(10,2)|numeric(10,3)",
            "smallint|numeric(10,3)", "bigint|real", "double precision|real", "integer|real", "numeric(10,2)|real",
            "numeric(10,3)|real", "smallint|real", "bigint|smallint", "integer|smallint", "char(3)|text", "varchar(5)|text",
            "date|timestamp", "timestamptz|timestamp", "date|timestamptz", "timestamp|timestamptz", "bit(3)|varbit",
            "char(3)|varchar(5)", "text|varchar(5)");

    /** Accepted by PostgreSQL, compared through the session's TimeZone: not supported yet. */
    private static final Set<String> ZONE_DEPENDENT = Set.of(
            "timestamptz|date", "timestamptz|timestamp", "date|timestamptz", "timestamp|timestamptz");

    @Test
    void acceptsThePairsPostgresAccepts() {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, DataType> referencing : TYPES.entrySet()) {
            for (Map.Entry<String, DataType> referenced : TYPES.entrySet()) {
                String pair = referencing.getKey() + "|" + referenced.getKey();
                KeyPairing expected;
                if (referencing.getKey().equals(referenced.getKey())) {
                    expected = KeyPairing.SAME;
                } else if (ZONE_DEPENDENT.contains(pair)) {
                    expected = KeyPairing.NOT_SUPPORTED;
                } else {
                    expected = ACCEPTED.contains(pair) ? null : KeyPairing.INCOMPATIBLE;
                }
                KeyPairing actual = KeyPairing.of(referencing.getValue(), referenced.getValue());
                boolean right = expected == null ? actual == KeyPairing.SAME || actual == KeyPairing.CONVERTED : actual == expected;
                if (!right) {
                    wrong.add(pair + " -> " + actual);
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void convertsOnlyWhereTheRepresentationsDiffer() {
        assertEquals(KeyPairing.SAME, KeyPairing.of(DataType.INTEGER, DataType.BIGINT));
        assertEquals(KeyPairing.SAME, KeyPairing.of(DataType.BIGINT, DataType.SMALLINT));
        assertEquals(KeyPairing.SAME, KeyPairing.of(DataType.decimal(10, 2), DataType.decimal(12, 2)));
        assertEquals(KeyPairing.CONVERTED, KeyPairing.of(DataType.decimal(10, 2), DataType.decimal(10, 3)));
        assertEquals(KeyPairing.SAME, KeyPairing.of(DataType.TEXT, DataType.charType(3)));
        assertEquals(KeyPairing.CONVERTED, KeyPairing.of(DataType.charType(3), DataType.TEXT));
        assertEquals(KeyPairing.SAME, KeyPairing.of(DataType.charType(3), DataType.charType(5)));
        assertEquals(KeyPairing.SAME, KeyPairing.of(DataType.array(DataType.varchar(3)), DataType.array(DataType.varchar(5))));
        assertEquals(KeyPairing.NOT_SUPPORTED, KeyPairing.of(DataType.array(DataType.decimal(5, 1)), DataType.array(DataType.decimal(5, 2))));
        assertEquals(KeyPairing.NOT_SUPPORTED, KeyPairing.of(DataType.INTERVAL_YEAR_MONTH, DataType.INTERVAL_DAY_TIME));
    }
}
