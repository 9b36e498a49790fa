package dev.quarantine.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * The outcome of every request of one open-loop run: its latency from its scheduled send time to the end of its
 * answer, which target it went to, and its outcome ({@code 200}, another status, {@code 200 wrong body},
 * {@code timeout} or an exception's name). Each request index is written by exactly one completion; read only after
 * every request completed.
 */
final class DeadLetterRestSamples {

    private final List<String> targets;
    private final long[] latencyNanos;
    private final String[] outcomes;

    DeadLetterRestSamples(List<String> targets, int requests) {
        this.targets = List.copyOf(targets);
        this.latencyNanos = new long[requests];
        this.outcomes = new String[requests];
    }

    void record(int request, long latency, String outcome) {
        latencyNanos[request] = latency;
        outcomes[request] = outcome;
    }

    int targetOf(int request) {
        return request % targets.size();
    }

    /** One row per target, then one for all targets together. */
    void print(String title) {
        System.out.println(title);
        System.out.printf("  %-44s %8s %7s %8s %8s %8s %8s%n", "target", "requests", "errors", "p50 ms", "p90 ms",
                "p99 ms", "max ms");
        for (int t = 0; t < targets.size(); t++) {
            int target = t;
            printRow(targets.get(t), i -> targetOf(i) == target);
        }
        if (targets.size() > 1) {
            printRow("all", i -> true);
        }
        Map<String, Integer> errors = errorsByOutcome(i -> true);
        System.out.println("  errors by outcome: " + (errors.isEmpty() ? "none" : errors));
    }

    /** The p-th percentile (nearest rank) of every request's latency, errors included, in milliseconds. */
    double percentileMillis(double p) {
        return percentile(latencies(i -> true), p) / 1e6;
    }

    int requests() {
        return outcomes.length;
    }

    int errors() {
        return errorsByOutcome(i -> true).values().stream().mapToInt(Integer::intValue).sum();
    }

    private void printRow(String name, IntPredicate selected) {
        long[] sorted = latencies(selected);
        int errors = errorsByOutcome(selected).values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf("  %-44s %8d %7d %8.1f %8.1f %8.1f %8.1f%n", name, sorted.length, errors,
                percentile(sorted, 50) / 1e6, percentile(sorted, 90) / 1e6, percentile(sorted, 99) / 1e6,
                sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6);
    }

    private long[] latencies(IntPredicate selected) {
        List<Long> chosen = new ArrayList<>();
        for (int i = 0; i < latencyNanos.length; i++) {
            if (selected.test(i)) {
                chosen.add(latencyNanos[i]);
            }
        }
        long[] sorted = chosen.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return sorted;
    }

    private Map<String, Integer> errorsByOutcome(IntPredicate selected) {
        Map<String, Integer> errors = new TreeMap<>();
        for (int i = 0; i < outcomes.length; i++) {
            if (selected.test(i) && !"200".equals(outcomes[i])) {
                errors.merge(outcomes[i] == null ? "no answer" : outcomes[i], 1, Integer::sum);
            }
        }
        return errors;
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
