package dev.quarantine.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import dev.quarantine.benchmarks.TxnSendThroughput.Mode;
import dev.quarantine.benchmarks.TxnSendThroughput.Result;
import dev.quarantine.benchmarks.TxnSendThroughput.Run;

/** The measurements of all rounds, and the table of their medians with the two targets. */
final class Results {

    private static final double TARGET_A_OVER_C_AT_0 = 0.97;
    private static final double TARGET_A_OVER_B_AT_1_PERCENT = 5;

    private final Map<Run, List<Result>> byRun = new HashMap<>();

    void add(Run run, Result result) {
        byRun.computeIfAbsent(run, r -> new ArrayList<>()).add(result);
    }

    /**
     * Prints records/s (medians over the rounds) and a/c, a/b (medians over the rounds of the ratio within a round),
     * from the median transaction time, and the two ratios from the total time too.
     */
    void print(int[] poisonPerThousand) {
        System.out.println();
        System.out.printf("%-7s %11s %11s %11s %11s %7s %7s %11s %11s%n", "poison", "(a) rec/s", "(b) rec/s",
                "(b) tries", "(c) rec/s", "a/c", "a/b", "a/c total", "a/b total");
        double acAtZero = Double.NaN;
        double abAtOnePercent = Double.NaN;
        for (int poison : poisonPerThousand) {
            List<Result> a = byRun.get(new Run(Mode.A, poison));
            List<Result> b = byRun.get(new Run(Mode.B, poison));
            List<Result> c = byRun.get(new Run(Mode.C, poison));
            double ac = medianRatio(a, c, Result::recordsPerSecond);
            double ab = medianRatio(a, b, Result::recordsPerSecond);
            System.out.printf("%-7s %11.0f %11.0f %11.1f %11.0f %7.2f %7.2f %11.2f %11.2f%n",
                    TxnSendThroughput.percent(poison), median(a, Result::recordsPerSecond),
                    median(b, Result::recordsPerSecond), median(b, Result::attemptsPerTransaction),
                    median(c, Result::recordsPerSecond), ac, ab, medianRatio(a, c, Result::overallRecordsPerSecond),
                    medianRatio(a, b, Result::overallRecordsPerSecond));
            acAtZero = poison == 0 ? ac : acAtZero;
            abAtOnePercent = poison == 10 ? ab : abAtOnePercent;
        }
        printCpu(poisonPerThousand);
        System.out.println("rec/s: input records (poison included) per second, from the median transaction time of a"
                + " measurement, median over the rounds; (c) has no poison and runs interleaved with (a) and (b) at"
                + " each ratio; (b) tries: transactions begun per batch of 1,000; a/c, a/b: median over the rounds of"
                + " the ratio within a round; \"total\": the same ratios from the total time of each measurement;"
                + " CPU µs/rec: CPU time of the sending thread (begin, sends, commit) per record, median transaction,"
                + " median over the rounds; a/c CPU: median over the rounds of the ratio within a round (above 1: (a)"
                + " costs more)");
        System.out.println();
        control();
        target("at 0% poison, a/c", acAtZero, TARGET_A_OVER_C_AT_0);
        target("at 1% poison, a/b", abAtOnePercent, TARGET_A_OVER_B_AT_1_PERCENT);
    }

    /** The sending thread's CPU time per record: (a)'s send path against KafkaProducer's, less noisy than rates. */
    private void printCpu(int[] poisonPerThousand) {
        System.out.printf("%-7s %17s %17s %9s%n", "poison", "(a) CPU µs/rec", "(c) CPU µs/rec", "a/c CPU");
        for (int poison : poisonPerThousand) {
            List<Result> a = byRun.get(new Run(Mode.A, poison));
            List<Result> c = byRun.get(new Run(Mode.C, poison));
            System.out.printf("%-7s %17.3f %17.3f %9.3f%n", TxnSendThroughput.percent(poison),
                    median(a, Result::cpuMicrosPerRecord), median(c, Result::cpuMicrosPerRecord),
                    medianRatio(a, c, Result::cpuMicrosPerRecord));
        }
    }

    /**
     * At 0% poison (b) is a plain KafkaProducer like (c): their ratio shows how far two identical producers drift
     * apart in this run, the noise a/c at 0% has to be read against.
     */
    private void control() {
        List<Result> b = byRun.get(new Run(Mode.B, 0));
        List<Result> c = byRun.get(new Run(Mode.C, 0));
        if (b != null && c != null) {
            System.out.printf("control at 0%% poison, b/c (two plain producers): %.2f, total %.2f, CPU %.3f%n",
                    medianRatio(b, c, Result::recordsPerSecond), medianRatio(b, c, Result::overallRecordsPerSecond),
                    medianRatio(b, c, Result::cpuMicrosPerRecord));
        }
    }

    private static void target(String what, double value, double goal) {
        if (Double.isNaN(value)) {
            return;
        }
        System.out.printf("target %s >= %.2f: %.2f %s%n", what, goal, value, value >= goal ? "PASS" : "MISS");
    }

    private static double median(List<Result> results, ToDoubleFunction<Result> value) {
        return median(results.stream().mapToDouble(value).toArray());
    }

    private static double medianRatio(List<Result> numerators, List<Result> denominators,
                                      ToDoubleFunction<Result> value) {
        double[] ratios = new double[numerators.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = value.applyAsDouble(numerators.get(i)) / value.applyAsDouble(denominators.get(i));
        }
        return median(ratios);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
