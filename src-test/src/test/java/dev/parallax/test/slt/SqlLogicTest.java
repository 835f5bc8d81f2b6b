package dev.parallax.test.slt;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs every {@code src/test/resources/sql/**}{@code /*.test} file under every {@link TestMode};
 * each record is a dynamic test named {@code file:line}. Records of a file share one session, in
 * order. With {@code -Dparallax.slt.complete=true} the files are instead rewritten with the rows
 * the engine returns (under the default mode), for review with {@code git diff}.
 */
class SqlLogicTest {
    private static final Path ROOT = Path.of("src/test/resources/sql");

    @TestFactory
    Stream<DynamicNode> sqlLogicTests() throws IOException {
        List<Path> files = testFiles();
        if (Boolean.getBoolean("parallax.slt.complete")) {
            return files.stream().map(file -> DynamicTest.dynamicTest("complete " + name(file), () -> complete(file)));
        }
        List<DynamicNode> nodes = new ArrayList<>();
        for (Path file : files) {
            List<TestRecord> records = TestFileParser.parse(name(file), read(file));
            for (TestMode mode : TestMode.values()) {
                nodes.add(DynamicContainer.dynamicContainer(name(file) + " [" + mode.name().toLowerCase() + "]",
                        file.toUri(), tests(file, records, mode)));
            }
        }
        return nodes.stream();
    }

    private static Stream<DynamicTest> tests(Path file, List<TestRecord> records, TestMode mode) {
        // One runner per file and mode: opened by the first record, closed after the last.
        RecordRunner[] runner = new RecordRunner[1];
        List<DynamicTest> tests = new ArrayList<>();
        for (int index = 0; index < records.size(); index++) {
            TestRecord record = records.get(index);
            boolean first = index == 0;
            boolean last = index == records.size() - 1;
            String where = name(file) + ":" + record.line();
            tests.add(DynamicTest.dynamicTest(where, file.toUri(), () -> {
                if (first) {
                    runner[0] = new RecordRunner(mode);
                }
                try {
                    switch (record) {
                        case TestRecord.Statement statement -> runner[0].runStatement(statement, where);
                        case TestRecord.Query query -> {
                            List<String> expected = new ArrayList<>(query.expectedRows());
                            if (query.sortMode() == TestRecord.SortMode.ROWSORT) {
                                expected.sort(null);
                            }
                            assertEquals(String.join("\n", expected), String.join("\n", runner[0].runQuery(query, where)),
                                    where + ": " + query.sql());
                        }
                    }
                } finally {
                    if (last) {
                        runner[0].close();
                    }
                }
            }));
        }
        return tests.stream();
    }

    /** Rewrites the result block of every query in {@code file} with the rows the engine returns. */
    private static void complete(Path file) throws IOException {
        String text = read(file);
        List<TestRecord> records = TestFileParser.parse(name(file), text);
        Map<Integer, List<String>> actual = new TreeMap<>();
        try (RecordRunner runner = new RecordRunner(TestMode.DEFAULT)) {
            for (TestRecord record : records) {
                String where = name(file) + ":" + record.line();
                switch (record) {
                    case TestRecord.Statement statement -> runner.runStatement(statement, where);
                    case TestRecord.Query query -> actual.put(query.line(), runner.runQuery(query, where));
                }
            }
        }
        String[] lines = text.split("\n", -1);
        StringBuilder rewritten = new StringBuilder();
        for (int index = 0; index < lines.length; index++) {
            List<String> rows = actual.get(index + 1);
            if (rows == null) {
                rewritten.append(lines[index]).append(index + 1 < lines.length ? "\n" : "");
                continue;
            }
            // Copy the query header and SQL, then replace the old result block.
            while (index < lines.length && !lines[index].isBlank() && !lines[index].equals("----")) {
                rewritten.append(lines[index++]).append('\n');
            }
            if (index < lines.length && lines[index].equals("----")) {
                index++;
                while (index < lines.length && !lines[index].isEmpty()) {
                    index++;
                }
            }
            rewritten.append("----\n");
            for (String row : rows) {
                rewritten.append(row).append('\n');
            }
            index--;
        }
        Files.writeString(file, rewritten.toString(), StandardCharsets.UTF_8);
    }

    private static List<Path> testFiles() throws IOException {
        try (Stream<Path> paths = Files.walk(ROOT)) {
            // -Dparallax.slt.only=joins runs only the files whose path contains "joins" (while developing).
            String only = System.getProperty("parallax.slt.only", "");
            return paths.filter(path -> path.toString().endsWith(".test") && path.toString().contains(only)).sorted().toList();
        }
    }

    private static String name(Path file) {
        return ROOT.relativize(file).toString();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
