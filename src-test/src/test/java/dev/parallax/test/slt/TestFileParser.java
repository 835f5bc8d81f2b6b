package dev.parallax.test.slt;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the sqllogictest-style format: records separated by blank lines, {@code #} comment lines,
 * {@code statement ok} / {@code statement error [SQLSTATE [message substring]]} followed by SQL,
 * and {@code query <types> [nosort|rowsort]} followed by SQL, a {@code ----} line and the rows.
 */
final class TestFileParser {
    private TestFileParser() {
    }

    static List<TestRecord> parse(String fileName, String text) {
        List<TestRecord> records = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        int index = 0;
        while (index < lines.length) {
            String line = lines[index].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                index++;
                continue;
            }
            int recordLine = index + 1;
            String[] words = line.split("\\s+", 4);
            index++;
            StringBuilder sql = new StringBuilder();
            while (index < lines.length && !lines[index].isBlank() && !lines[index].equals("----")) {
                sql.append(sql.isEmpty() ? "" : "\n").append(lines[index]);
                index++;
            }
            if (sql.isEmpty()) {
                throw new IllegalArgumentException(fileName + ":" + recordLine + ": record without SQL");
            }
            switch (words[0]) {
                case "statement" -> {
                    if (words.length < 2 || !(words[1].equals("ok") || words[1].equals("error"))) {
                        throw new IllegalArgumentException(fileName + ":" + recordLine + ": expected 'statement ok' or 'statement error'");
                    }
                    boolean error = words[1].equals("error");
                    String state = error && words.length > 2 ? words[2] : null;
                    String message = error && words.length > 3 ? words[3] : null;
                    records.add(new TestRecord.Statement(recordLine, sql.toString(), error, state, message));
                }
                case "query" -> {
                    if (words.length < 2) {
                        throw new IllegalArgumentException(fileName + ":" + recordLine + ": query needs column types");
                    }
                    TestRecord.SortMode sortMode = words.length > 2 && words[2].equals("rowsort")
                            ? TestRecord.SortMode.ROWSORT : TestRecord.SortMode.NOSORT;
                    List<String> rows = new ArrayList<>();
                    if (index < lines.length && lines[index].equals("----")) {
                        index++;
                        while (index < lines.length && !lines[index].isEmpty()) {
                            rows.add(lines[index]);
                            index++;
                        }
                    }
                    records.add(new TestRecord.Query(recordLine, sql.toString(), words[1], sortMode, rows));
                }
                default -> throw new IllegalArgumentException(fileName + ":" + recordLine + ": unknown record '" + words[0] + "'");
            }
        }
        return records;
    }
}
