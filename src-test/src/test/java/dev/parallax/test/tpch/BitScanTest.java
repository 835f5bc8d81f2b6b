package dev.parallax.test.tpch;

import dev.parallax.Database;
import dev.parallax.Result;
import dev.parallax.Session;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seed article's query: count the rows of a 200-bit column whose bitand with a mask equals the
 * mask, on 10M rows, in parallel. Half the rows match (the other half hold the complement).
 */
class BitScanTest {
    private static final String PATTERN = "10".repeat(100);
    private static final String COMPLEMENT = "01".repeat(100);

    @Test
    void bitandCountOnTenMillionRowsRunsInParallel() {
        try (Database database = Database.inMemory(); Session session = database.openSession()) {
            session.execute("CREATE TABLE t_bit2 (id bit(200))").close();
            session.execute("INSERT INTO t_bit2 SELECT CASE WHEN i % 2 = 0 THEN B'" + PATTERN + "' ELSE B'" + COMPLEMENT
                    + "' END FROM generate_series(1, 10000000) AS g(i)").close();
            String query = "select count(*) from t_bit2 where bitand(id, B'" + PATTERN + "') = B'" + PATTERN + "'";
            try (Result result = session.execute(query)) {
                assertEquals(List.of(List.of(5_000_000L)), result.fetchAll());
            }
            StringBuilder plan = new StringBuilder();
            try (Result result = session.execute("EXPLAIN ANALYZE " + query)) {
                for (List<Object> row : result.fetchAll()) {
                    plan.append(row.get(0)).append('\n');
                }
            }
            assertTrue(plan.toString().contains("Parallel Seq Scan on t_bit2"), plan.toString());
            assertTrue(plan.toString().matches("(?s).*Workers Launched: [12].*"), plan.toString());
        }
    }
}
