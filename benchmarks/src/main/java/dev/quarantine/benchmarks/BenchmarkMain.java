package dev.quarantine.benchmarks;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

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
 * {@code rawX} / {@code wrappedX} pair side by side with their ratio: of the means, and of the best (lowest)
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
        results.forEach(r -> byName.put(r.getParams().getBenchmark(), r));
        System.out.println();
        System.out.println("raw vs wrapped, side by side in this run:");
        byName.forEach((name, raw) -> {
            int dot = name.lastIndexOf('.');
            String method = name.substring(dot + 1);
            if (!method.startsWith("raw")) {
                return;
            }
            RunResult wrapped = byName.get(name.substring(0, dot + 1) + "wrapped" + method.substring("raw".length()));
            if (wrapped != null) {
                System.out.println(line(name.substring(0, dot), method.substring("raw".length()), raw, wrapped));
            }
        });
    }

    private static String line(String benchmarkClass, String what, RunResult raw, RunResult wrapped) {
        double rawMean = raw.getPrimaryResult().getScore();
        double wrappedMean = wrapped.getPrimaryResult().getScore();
        double rawBest = raw.getPrimaryResult().getStatistics().getMin();
        double wrappedBest = wrapped.getPrimaryResult().getStatistics().getMin();
        String unit = raw.getPrimaryResult().getScoreUnit();
        return String.format(Locale.ROOT, "  %s.%s%n"
                        + "    mean: raw %,.1f %s  wrapped %,.1f %s  ratio %.3f  overhead %,.1f %s%n"
                        + "    best: raw %,.1f %s  wrapped %,.1f %s  ratio %.3f  overhead %,.1f %s",
                benchmarkClass.substring(benchmarkClass.lastIndexOf('.') + 1), what,
                rawMean, unit, wrappedMean, unit, wrappedMean / rawMean, wrappedMean - rawMean, unit,
                rawBest, unit, wrappedBest, unit, wrappedBest / rawBest, wrappedBest - rawBest, unit);
    }
}
