package dev.quarantine.benchmarks;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Main class of {@code benchmarks.jar}: runs the JMH benchmarks matching the arguments (JMH's own command line: a
 * regex such as {@code StoreQueries}, and {@code -wi}, {@code -i}, {@code -f}, ... to override the short defaults of
 * 3 warm-up and 5 measurement iterations of 1 s in 1 fork), then prints, for each benchmark class, every
 * {@code rawX} / {@code wrappedX} pair of the same JMH parameters (a {@code raw} / {@code wrapped} pair per
 * {@code shape} of {@code RecordGateBenchmark}) side by side with their ratio: of the means, and of the best (lowest)
 * iterations, which is the steadier figure on a shared machine where other processes steal whole iterations.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cli);
        if (!cli.getWarmupIterations().hasValue()) {
            options.warmupIterations(3);
        }
        if (!cli.getWarmupTime().hasValue()) {
            options.warmupTime(TimeValue.seconds(1));
        }
        if (!cli.getMeasurementIterations().hasValue()) {
            options.measurementIterations(5);
        }
        if (!cli.getMeasurementTime().hasValue()) {
            options.measurementTime(TimeValue.seconds(1));
        }
        if (!cli.getForkCount().hasValue()) {
            options.forks(1);
        }
        printRatios(new Runner(options.build()).run());
    }

    static void printRatios(Collection<RunResult> results) {
        Map<String, RunResult> byName = new TreeMap<>();
        results.forEach(r -> byName.put(r.getParams().getBenchmark() + params(r), r));
        System.out.println();
        System.out.println("raw vs wrapped, side by side in this run:");
        results.forEach(raw -> {
            String name = raw.getParams().getBenchmark();
            int dot = name.lastIndexOf('.');
            String method = name.substring(dot + 1);
            if (!method.startsWith("raw")) {
                return;
            }
            String what = method.substring("raw".length());
            RunResult wrapped = byName.get(name.substring(0, dot + 1) + "wrapped" + what + params(raw));
            if (wrapped != null) {
                String label = (what.isEmpty() ? "" : "." + what) + params(raw);
                System.out.println(line(name.substring(0, dot), label, raw, wrapped));
            }
        });
    }

    /** The run's JMH parameters as {@code " [shape=Bytes]"}, empty without any: a raw and a wrapped run pair by them. */
    private static String params(RunResult result) {
        Collection<String> keys = new TreeSet<>(result.getParams().getParamsKeys());
        if (keys.isEmpty()) {
            return "";
        }
        StringJoiner joined = new StringJoiner(", ", " [", "]");
        keys.forEach(key -> joined.add(key + "=" + result.getParams().getParam(key)));
        return joined.toString();
    }

    private static String line(String benchmarkClass, String what, RunResult raw, RunResult wrapped) {
        double rawMean = raw.getPrimaryResult().getScore();
        double wrappedMean = wrapped.getPrimaryResult().getScore();
        double rawBest = raw.getPrimaryResult().getStatistics().getMin();
        double wrappedBest = wrapped.getPrimaryResult().getStatistics().getMin();
        String unit = raw.getPrimaryResult().getScoreUnit();
        return String.format(Locale.ROOT, "  %s%s%n"
                        + "    mean: raw %,.1f %s  wrapped %,.1f %s  ratio %.3f  overhead %,.1f %s%n"
                        + "    best: raw %,.1f %s  wrapped %,.1f %s  ratio %.3f  overhead %,.1f %s",
                benchmarkClass.substring(benchmarkClass.lastIndexOf('.') + 1), what,
                rawMean, unit, wrappedMean, unit, wrappedMean / rawMean, wrappedMean - rawMean, unit,
                rawBest, unit, wrappedBest, unit, wrappedBest / rawBest, wrappedBest - rawBest, unit);
    }
}
