package dev.parallax.bench;

import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.ArrayList;
import java.util.Arrays;
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
 *
 * <p>{@code --pairs=N} runs N pairs of forks instead, the two tables'
 * forks alternating (test then p, then p then test, ...), one fork per table and benchmark each
 * time, and reports per benchmark the median of all measurement iterations of each table, their
 * ratio, and the median and range of the pairs' ratios. JMH's {@code -f N} runs all forks of
 * {@code test} and then all of {@code p}: on this shared VM, whose speed drifts by up to 25% over
 * minutes, that sets the tables minutes apart; alternating forks spreads the drift over both.
 */
public final class PartitionRatioReport {
    private static final String DEFAULT_INCLUDE = "(PointSelectBenchmark|UpsertBenchmark)\\.";
    private static final String PAIRS_OPTION = "--pairs=";
    private static final String[] TABLES = {"test", "p"};
    /** CpuTimeProfiler's CPU time per operation of the benchmark threads, when it runs. */
    private static final String CPU_RESULT = "·cpu.workers";

    /** One fork's measurement iterations: scores, and CPU ns per operation (NaN without CpuTimeProfiler). */
    record Fork(double[] scores, double[] cpu) {
    }

    private PartitionRatioReport() {
    }

    public static void main(String[] arguments) throws RunnerException, CommandLineOptionException {
        int pairs = 0;
        List<String> jmhArguments = new ArrayList<>();
        for (String argument : arguments) {
            if (argument.startsWith(PAIRS_OPTION)) {
                pairs = Integer.parseInt(argument.substring(PAIRS_OPTION.length()));
                if (pairs < 1) {
                    throw new IllegalArgumentException("--pairs must be at least 1");
                }
            } else {
                jmhArguments.add(argument);
            }
        }
        CommandLineOptions commandLine = new CommandLineOptions(jmhArguments.toArray(String[]::new));
        if (pairs == 0) {
            Collection<RunResult> results = new Runner(options(commandLine, null)).run();
            System.out.println();
            System.out.print(report(results));
            return;
        }
        // Per benchmark (name and parameters other than the table), per pair and table: the measurement iterations.
        int pairCount = pairs;
        Map<String, Fork[][]> scores = new TreeMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        for (int pair = 0; pair < pairs; pair++) {
            for (int turn = 0; turn < TABLES.length; turn++) {
                int table = pair % 2 == 0 ? turn : TABLES.length - 1 - turn;
                for (RunResult result : new Runner(options(commandLine, TABLES[table])).run()) {
                    String name = name(result);
                    List<IterationResult> iterations = new ArrayList<>();
                    for (BenchmarkResult fork : result.getBenchmarkResults()) {
                        iterations.addAll(fork.getIterationResults());
                    }
                    double[] values = new double[iterations.size()];
                    double[] cpu = new double[iterations.size()];
                    for (int index = 0; index < values.length; index++) {
                        values[index] = iterations.get(index).getPrimaryResult().getScore();
                        var cpuResult = iterations.get(index).getSecondaryResults().get(CPU_RESULT);
                        cpu[index] = cpuResult == null ? Double.NaN : cpuResult.getScore();
                    }
                    scores.computeIfAbsent(name, ignored -> new Fork[pairCount][TABLES.length])[pair][table] = new Fork(values, cpu);
                    units.put(name, result.getPrimaryResult().getScoreUnit());
                }
            }
            System.out.println();
            System.out.print(pairsReport(scores, units, pair + 1));
        }
    }

    /** The command line's options, with the default benchmarks when it names none, and for {@code table} alone (one fork) when not null. */
    private static Options options(CommandLineOptions commandLine, String table) {
        OptionsBuilder builder = new OptionsBuilder();
        builder.parent(commandLine);
        if (commandLine.getIncludes().isEmpty()) {
            builder.include(DEFAULT_INCLUDE);
        }
        if (table != null) {
            builder.param("table", table).forks(1);
        }
        return builder.build();
    }

    /** The benchmark's short name and its parameters other than {@code table}. */
    private static String name(RunResult result) {
        List<String> others = new ArrayList<>();
        for (String key : result.getParams().getParamsKeys()) {
            if (!key.equals("table")) {
                others.add(key + "=" + result.getParams().getParam(key));
            }
        }
        String benchmark = result.getParams().getBenchmark();
        return benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1)
                + (others.isEmpty() ? "" : " " + String.join(" ", others));
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
            String name = name(result);
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

    /**
     * The alternating run's table after {@code pairsDone} pairs: per benchmark the median of each
     * table's iterations over all pairs (and of their CPU per operation), their ratio, and the
     * pairs' own ratios (each the ratio of the two forks' medians): their median and range.
     */
    static String pairsReport(Map<String, Fork[][]> scores, Map<String, String> units, int pairsDone) {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "Partitioned / single after %d alternating pair(s) of forks (issue 7 target: at least 0.9)%n", pairsDone));
        text.append(String.format(Locale.ROOT, "%-46s %22s %22s %8s %22s%n", "benchmark", "test (cpu ns/op)", "p (cpu ns/op)", "p / test",
                "pairs: median (range)"));
        for (Map.Entry<String, Fork[][]> entry : scores.entrySet()) {
            Fork[][] forks = entry.getValue();
            double[] pairRatios = new double[pairsDone];
            for (int pair = 0; pair < pairsDone; pair++) {
                pairRatios[pair] = median(forks[pair][1].scores()) / median(forks[pair][0].scores());
            }
            String[] columns = new String[TABLES.length];
            double[] medians = new double[TABLES.length];
            for (int table = 0; table < TABLES.length; table++) {
                List<Fork> tableForks = new ArrayList<>();
                for (int pair = 0; pair < pairsDone; pair++) {
                    tableForks.add(forks[pair][table]);
                }
                medians[table] = median(pooled(tableForks, Fork::scores));
                double cpu = median(pooled(tableForks, Fork::cpu));
                columns[table] = format(medians[table]) + (Double.isNaN(cpu) ? "" : String.format(Locale.ROOT, " (%,.0f)", cpu));
            }
            double[] sortedRatios = pairRatios.clone();
            Arrays.sort(sortedRatios);
            text.append(String.format(Locale.ROOT, "%-46s %22s %22s %8.3f %8.3f (%.3f-%.3f)  %s%n", entry.getKey(), columns[0], columns[1],
                    medians[1] / medians[0], median(pairRatios), sortedRatios[0], sortedRatios[pairsDone - 1], units.get(entry.getKey())));
        }
        return text.toString();
    }

    /** The values {@code part} gives of each fork, in one array. */
    private static double[] pooled(List<Fork> forks, java.util.function.Function<Fork, double[]> part) {
        return forks.stream().flatMapToDouble(fork -> Arrays.stream(part.apply(fork))).toArray();
    }

    /** The median of {@code values} (the mean of the middle two for an even count). */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String format(Double score) {
        return score == null ? "-" : String.format(Locale.ROOT, "%,.0f", score);
    }
}
