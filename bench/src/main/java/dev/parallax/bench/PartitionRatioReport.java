package dev.parallax.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs the partition experiment's benchmarks ({@link PointSelectBenchmark}, {@link UpsertBenchmark}:
 * by default both, every thread count) on table {@code test} and on {@code p} (1024 partitions)
 * and prints, after JMH's own table, the figure of merit: partitioned / single throughput
 * per benchmark, thread count and row count (target at least 0.9). Takes JMH's command-line
 * options, e.g. {@code bench/partition-ratio -p rows=10000000 -f 1 -wi 1 -i 3}; a benchmark regex
 * narrows the run as with JMH ({@code bench/partition-ratio 'UpsertBenchmark'}).
 */
public final class PartitionRatioReport {
    private static final String DEFAULT_INCLUDE = "(PointSelectBenchmark|UpsertBenchmark)\\.";

    private PartitionRatioReport() {
    }

    public static void main(String[] arguments) throws RunnerException, CommandLineOptionException {
        CommandLineOptions commandLine = new CommandLineOptions(arguments);
        OptionsBuilder builder = new OptionsBuilder();
        builder.parent(commandLine);
        if (commandLine.getIncludes().isEmpty()) {
            builder.include(DEFAULT_INCLUDE);
        }
        Options options = builder.build();
        Collection<RunResult> results = new Runner(options).run();
        System.out.println();
        System.out.print(report(results));
    }

    /** The ratio table: one line per benchmark and parameters other than {@code table}, with both tables' scores. */
    static String report(Collection<RunResult> results) {
        Map<String, Map<String, Double>> scores = new TreeMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        for (RunResult result : results) {
            String table = result.getParams().getParam("table");
            if (table == null) {
                continue;
            }
            List<String> others = new ArrayList<>();
            for (String key : result.getParams().getParamsKeys()) {
                if (!key.equals("table")) {
                    others.add(key + "=" + result.getParams().getParam(key));
                }
            }
            String benchmark = result.getParams().getBenchmark();
            String name = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1)
                    + (others.isEmpty() ? "" : " " + String.join(" ", others));
            scores.computeIfAbsent(name, ignored -> new TreeMap<>()).put(table, result.getPrimaryResult().getScore());
            units.put(name, result.getPrimaryResult().getScoreUnit());
        }
        StringBuilder text = new StringBuilder("Partitioned / single (issue 7 target: at least 0.9)\n");
        text.append(String.format(Locale.ROOT, "%-58s %14s %14s %8s%n", "benchmark", "test (single)", "p (1024 part.)", "p / test"));
        for (Map.Entry<String, Map<String, Double>> entry : scores.entrySet()) {
            Double single = entry.getValue().get("test");
            Double partitioned = entry.getValue().get("p");
            String ratio = single == null || partitioned == null || single == 0 ? "-"
                    : String.format(Locale.ROOT, "%.2f", partitioned / single);
            text.append(String.format(Locale.ROOT, "%-58s %14s %14s %8s  %s%n", entry.getKey(), format(single), format(partitioned),
                    ratio, units.get(entry.getKey())));
        }
        return text.toString();
    }

    private static String format(Double score) {
        return score == null ? "-" : String.format(Locale.ROOT, "%,.0f", score);
    }
}
