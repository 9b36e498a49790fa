package dev.quarantine.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import dev.quarantine.benchmarks.SinkVsMirrorMakerThroughput.Result;

/** The runs of {@link SinkVsMirrorMakerThroughput} by mode, one per round, and the table of their medians. */
final class SinkVsMirrorMakerResults {

    private static final double TARGET = 1.0;

    private final Map<SinkVsMirrorMakerMode, List<Result>> byMode = new EnumMap<>(SinkVsMirrorMakerMode.class);

    void add(SinkVsMirrorMakerMode mode, Result result) {
        byMode.computeIfAbsent(mode, m -> new ArrayList<>()).add(result);
    }

    void print() {
        System.out.println();
        System.out.println("| connector | worker | records/s from creation | records/s from first record"
                + " | rounds, from creation | CPU s worker | CPU s broker | broker EndTxn/s |");
        System.out.println("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |");
        for (SinkVsMirrorMakerMode mode : SinkVsMirrorMakerMode.values()) {
            List<Result> results = byMode.get(mode);
            System.out.printf("| %s | exactly.once.source.support=%s | %,.0f | %,.0f | %s | %.1f | %.1f | %.1f |%n",
                    mode.label, mode.onExactlyOnceWorker ? "enabled" : "disabled",
                    median(results, Result::fromCreation), median(results, Result::fromFirstRecord),
                    results.stream().map(r -> String.format("%,.0f", r.fromCreation()))
                            .collect(Collectors.joining(" / ")),
                    median(results, Result::workerCpu), median(results, Result::brokerCpu),
                    median(results, Result::endTxnPerSecond));
        }
        System.out.println("records/s: input records per second until all of them were committed (target topic, and"
                + " for the sink its DLQ) as a read_committed consumer sees them; median over the rounds; ratios below"
                + " are medians of the ratios within each round. CPU s: CPU seconds the worker running the connector,"
                + " and the broker, used during a run (median). EndTxn/s: the broker's EndTxn requests (transactions"
                + " ended, by any producer: the connector's, and the worker's own offset commits under exactly-once"
                + " source support) from creation until done, per second (median)");
        System.out.println();
        ratio("ours / MM2 exactly-once (target)", SinkVsMirrorMakerMode.SINK,
                SinkVsMirrorMakerMode.MIRROR_EXACTLY_ONCE, true);
        ratio("ours / MM2 at-least-once (aim)", SinkVsMirrorMakerMode.SINK,
                SinkVsMirrorMakerMode.MIRROR_AT_LEAST_ONCE, true);
        ratio("MM2 exactly-once / MM2 at-least-once", SinkVsMirrorMakerMode.MIRROR_EXACTLY_ONCE,
                SinkVsMirrorMakerMode.MIRROR_AT_LEAST_ONCE, false);
    }

    /**
     * Each connector's rate in these runs as a ratio of its own in {@code smaller}'s runs of the same rounds: how
     * much of its rate each keeps as the partitions grow, side by side.
     */
    void printScaling(SinkVsMirrorMakerResults smaller) {
        for (SinkVsMirrorMakerMode mode : SinkVsMirrorMakerMode.values()) {
            System.out.printf("  %-42s from creation %.2f, from first record %.2f%n", mode.label,
                    medianRatio(byMode.get(mode), smaller.byMode.get(mode), Result::fromCreation),
                    medianRatio(byMode.get(mode), smaller.byMode.get(mode), Result::fromFirstRecord));
        }
    }

    private void ratio(String what, SinkVsMirrorMakerMode numerator, SinkVsMirrorMakerMode denominator,
                       boolean judged) {
        double fromCreation = medianRatio(numerator, denominator, Result::fromCreation);
        double fromFirst = medianRatio(numerator, denominator, Result::fromFirstRecord);
        System.out.printf("%-38s from creation %.2f%s, from first record %.2f%s%n", what, fromCreation,
                verdict(fromCreation, judged), fromFirst, verdict(fromFirst, judged));
    }

    private static String verdict(double ratio, boolean judged) {
        return judged ? (ratio >= TARGET ? " PASS" : " MISS") : "";
    }

    private double medianRatio(SinkVsMirrorMakerMode numerator, SinkVsMirrorMakerMode denominator,
                               ToDoubleFunction<Result> rate) {
        return medianRatio(byMode.get(numerator), byMode.get(denominator), rate);
    }

    /** The median of the ratios of the rates of runs at the same index (the same round). */
    private static double medianRatio(List<Result> top, List<Result> bottom, ToDoubleFunction<Result> rate) {
        double[] ratios = new double[top.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = rate.applyAsDouble(top.get(i)) / rate.applyAsDouble(bottom.get(i));
        }
        return median(ratios);
    }

    private static double median(List<Result> results, ToDoubleFunction<Result> rate) {
        return median(results.stream().mapToDouble(rate).toArray());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
