package dev.parallax.engine.operator.dml;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keys of several columns compared as the stored columns' unique index compares them. */
class KeyPositionsTest {
    private static Batch rows(List<DataType> types, Object[]... values) {
        Batch batch = Batch.create(types, values.length);
        for (int row = 0; row < values.length; row++) {
            for (int column = 0; column < types.size(); column++) {
                Object value = values[row][column];
                switch (batch.column(column)) {
                    case LongVector longs -> longs.set(row, ((Number) value).longValue());
                    case DoubleVector doubles -> doubles.set(row, ((Number) value).doubleValue());
                    case BytesVector bytes -> bytes.set(row, ((String) value).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        batch.setRowCount(values.length);
        return batch;
    }

    @Test
    void findsTheFirstRowOfAKey() {
        List<DataType> types = List.of(DataType.BIGINT, DataType.TEXT);
        Batch stored = rows(types, new Object[]{1L, "x"}, new Object[]{2L, "x"}, new Object[]{1L, "x"}, new Object[]{1L, "y"});
        KeyPositions keys = new KeyPositions(stored, new int[]{0, 1}, 1);
        for (int row = 0; row < 4; row++) {
            keys.putIfAbsent(row);
        }
        Batch probe = rows(List.of(DataType.TEXT, DataType.INTEGER), new Object[]{"x", 1L}, new Object[]{"y", 2L}, new Object[]{"y", 1L});
        assertEquals(0, keys.get(probe, 0, new int[]{1, 0}));
        assertEquals(-1, keys.get(probe, 1, new int[]{1, 0}));
        assertEquals(3, keys.get(probe, 2, new int[]{1, 0}));
    }

    @Test
    void characterKeysIgnoreTrailingBlanksTextKeysDoNot() {
        Batch padded = rows(List.of(DataType.charType(4)), new Object[]{"ab  "});
        KeyPositions characters = new KeyPositions(padded, new int[]{0}, 1);
        characters.putIfAbsent(0);
        Batch probe = rows(List.of(DataType.TEXT), new Object[]{"ab"}, new Object[]{"ab "}, new Object[]{" ab"});
        assertEquals(0, characters.get(probe, 0, new int[]{0}));
        assertEquals(0, characters.get(probe, 1, new int[]{0}));
        assertEquals(-1, characters.get(probe, 2, new int[]{0}));
        Batch text = rows(List.of(DataType.TEXT), new Object[]{"ab "});
        KeyPositions texts = new KeyPositions(text, new int[]{0}, 1);
        texts.putIfAbsent(0);
        assertEquals(-1, texts.get(probe, 0, new int[]{0}));
        assertEquals(0, texts.get(probe, 1, new int[]{0}));
    }

    @Test
    void doublesCompareAsTheIndexDoesButChangeAsTheirTextDoes() {
        Batch stored = rows(List.of(DataType.DOUBLE), new Object[]{0.0}, new Object[]{Double.NaN});
        KeyPositions keys = new KeyPositions(stored, new int[]{0}, 1);
        keys.putIfAbsent(0);
        keys.putIfAbsent(1);
        Batch probe = rows(List.of(DataType.DOUBLE), new Object[]{-0.0}, new Object[]{Double.longBitsToDouble(0x7ff8000000000001L)});
        assertEquals(0, keys.get(probe, 0, new int[]{0}));
        assertEquals(1, keys.get(probe, 1, new int[]{0}));
        assertFalse(KeyValues.sameRepresentation(stored, 0, new int[]{0}, probe, 0, new int[]{0}));
        assertTrue(KeyValues.sameRepresentation(stored, 1, new int[]{0}, probe, 1, new int[]{0}));
    }

    @Test
    void growsPastItsFirstCapacity() {
        Object[][] values = new Object[1000][];
        for (int row = 0; row < values.length; row++) {
            values[row] = new Object[]{(long) row % 700, "k" + row % 700};
        }
        Batch stored = rows(List.of(DataType.BIGINT, DataType.TEXT), values);
        KeyPositions keys = new KeyPositions(stored, new int[]{0, 1}, 1);
        for (int row = 0; row < values.length; row++) {
            keys.putIfAbsent(row);
        }
        for (int row = 0; row < values.length; row++) {
            assertEquals(row % 700, keys.get(stored, row, new int[]{0, 1}));
        }
    }
}
