package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ValueTextTest {
    private static String roundTrip(DataType type, String text) {
        Object value = ValueText.parse(type, text);
        ColumnVector vector = ColumnVector.create(type, 1);
        switch (vector) {
            case LongVector longs -> longs.set(0, (Long) value);
            case DoubleVector doubles -> doubles.set(0, (Double) value);
            case BytesVector bytes -> bytes.set(0, (byte[]) value);
        }
        return ValueText.format(vector, 0);
    }

    private static void assertError(SqlState state, String message, DataType type, String text) {
        ParallaxException error = assertThrows(ParallaxException.class, () -> ValueText.parse(type, text));
        assertEquals(state, error.state());
        assertEquals(message, error.getMessage());
    }

    @Test
    void booleans() {
        assertEquals("t", roundTrip(DataType.BOOLEAN, "yes"));
        assertEquals("f", roundTrip(DataType.BOOLEAN, " OFF "));
        assertEquals("t", roundTrip(DataType.BOOLEAN, "1"));
        assertError(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type boolean: \"o\"", DataType.BOOLEAN, "o");
    }

    @Test
    void integers() {
        assertEquals("-2147483648", roundTrip(DataType.INTEGER, " -2147483648 "));
        assertEquals("-9223372036854775808", roundTrip(DataType.BIGINT, "-9223372036854775808"));
        assertError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"2147483648\" is out of range for type integer", DataType.INTEGER, "2147483648");
        assertError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"40000\" is out of range for type smallint", DataType.SMALLINT, "40000");
        assertError(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type integer: \"abc\"", DataType.INTEGER, "abc");
        assertError(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type bigint: \"\"", DataType.BIGINT, "");
    }

    @Test
    void numerics() {
        DataType money = DataType.decimal(15, 2);
        assertEquals("123.46", roundTrip(money, "123.455"));
        assertEquals("-0.01", roundTrip(money, "-0.005"));
        assertEquals("0.50", roundTrip(money, ".5"));
        assertEquals("100.00", roundTrip(DataType.decimal(5, 2), "1e2"));
        assertError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow", DataType.decimal(5, 2), "1000");
        assertError(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type numeric: \"x\"", money, "x");
    }

    @Test
    void floatsPrintShortestRoundTrip() {
        assertEquals("0.1", roundTrip(DataType.DOUBLE, "0.1"));
        assertEquals("1e+20", roundTrip(DataType.DOUBLE, "1e20"));
        assertEquals("123456789012345", roundTrip(DataType.DOUBLE, "123456789012345"));
        assertEquals("1e+15", roundTrip(DataType.DOUBLE, "1e15"));
        assertEquals("1e-05", roundTrip(DataType.DOUBLE, "0.00001"));
        assertEquals("0.0001", roundTrip(DataType.DOUBLE, "0.0001"));
        assertEquals("-Infinity", roundTrip(DataType.DOUBLE, "-inf"));
        assertEquals("NaN", roundTrip(DataType.DOUBLE, "nan"));
        assertEquals("1e+06", roundTrip(DataType.REAL, "1e6"));
        assertEquals("1.1", roundTrip(DataType.REAL, "1.1"));
        assertError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "\"1e400\" is out of range for type double precision", DataType.DOUBLE, "1e400");
        assertError(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type real: \"1x\"", DataType.REAL, "1x");
    }

    @Test
    void datesAndTimestamps() {
        assertEquals("1998-09-02", roundTrip(DataType.DATE, "1998-09-02"));
        assertEquals("1998-09-02", roundTrip(DataType.DATE, "19980902"));
        assertEquals("1998-09-02", roundTrip(DataType.DATE, "09/02/1998"));
        assertEquals("0044-03-15 BC", roundTrip(DataType.DATE, "0044-03-15 BC"));
        assertEquals("1998-09-02 12:34:56.12", roundTrip(DataType.TIMESTAMP, "1998-09-02 12:34:56.120000"));
        assertEquals("1998-09-02 00:00:00", roundTrip(DataType.TIMESTAMP, "1998-09-02"));
        assertError(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"2021-02-29\"", DataType.DATE, "2021-02-29");
        assertError(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type date: \"bad\"", DataType.DATE, "bad");
    }

    @Test
    void intervals() {
        assertEquals("1 year 2 mons", roundTrip(DataType.INTERVAL_YEAR_MONTH, "1 year 2 mons"));
        assertEquals("-1 years -2 mons", roundTrip(DataType.INTERVAL_YEAR_MONTH, "-14 months"));
        assertEquals("00:00:00", roundTrip(DataType.INTERVAL_YEAR_MONTH, "0 months"));
        assertEquals("3 days", roundTrip(DataType.INTERVAL_DAY_TIME, "3 days"));
        assertEquals("1 day 04:05:06", roundTrip(DataType.INTERVAL_DAY_TIME, "1 day 04:05:06"));
        assertEquals("-00:00:01", roundTrip(DataType.INTERVAL_DAY_TIME, "-00:00:01"));
        assertEquals("01:30:00", roundTrip(DataType.INTERVAL_DAY_TIME, "90 minutes"));
    }

    @Test
    void characterTypes() {
        assertEquals("ab   ", roundTrip(DataType.charType(5), "ab"));
        assertEquals("abc  ", roundTrip(DataType.varchar(5), "abc   "));
        assertError(SqlState.STRING_DATA_RIGHT_TRUNCATION, "value too long for type character varying(5)", DataType.varchar(5), "abcdef");
        assertError(SqlState.STRING_DATA_RIGHT_TRUNCATION, "value too long for type character varying(3)", DataType.varchar(3), "héllo");
    }

    @Test
    void bitStrings() {
        assertEquals("0101", roundTrip(DataType.bit(4), "0101"));
        assertEquals("11110000", roundTrip(DataType.VARBIT, "xF0"));
        assertError(SqlState.STRING_DATA_LENGTH_MISMATCH, "bit string length 4 does not match type bit(5)", DataType.bit(5), "0101");
        assertError(SqlState.STRING_DATA_RIGHT_TRUNCATION, "bit string too long for type bit varying(3)", DataType.varbit(3), "0101");
    }
}
