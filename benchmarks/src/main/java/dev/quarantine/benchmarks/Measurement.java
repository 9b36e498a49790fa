package dev.quarantine.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

import dev.quarantine.benchmarks.TxnSendThroughput.Result;
import dev.quarantine.benchmarks.TxnSendThroughput.Run;

/** One (mode, poison ratio) of a round: its workload, its writer, and the time each timed transaction took. */
final class Measurement {

    private final Run run;
    private final Workload workload;
    private final TransactionWriter writer;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long[] nanos;
    private final long[] cpuNanos;
    private long failedBefore;
    private long begunBefore;

    Measurement(Run run, Workload workload, TransactionWriter writer) {
        this.run = run;
        this.workload = workload;
        this.writer = writer;
        this.nanos = new long[workload.transactionCount() - 1];
        this.cpuNanos = new long[nanos.length];
    }

    Run run() {
        return run;
    }

    Workload workload() {
        return workload;
    }

    /** Writes transaction 0, untimed: a single record, so the producer learns the new topic. */
    void prime() {
        failedBefore = writer.failures().total();
        writer.write(workload.transaction(0));
        begunBefore = writer.transactionsBegun();
    }

    /** Writes timed transaction {@code t} (1-based), if the workload has it. */
    void writeTimed(int t) {
        if (t < workload.transactionCount()) {
            long cpuStart = THREADS.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            writer.write(workload.transaction(t));
            nanos[t - 1] = System.nanoTime() - start;
            cpuNanos[t - 1] = THREADS.getCurrentThreadCpuTime() - cpuStart;
        }
    }

    /** Records that failed since {@link #prime()}. */
    long failed() {
        return writer.failures().total() - failedBefore;
    }

    /** All failures of this writer so far, by exception class. */
    Failures failures() {
        return writer.failures();
    }

    /**
     * Records per second from the median transaction (robust to stalls from other processes on the machine) and from
     * the total time, transactions begun per batch, and the calling thread's CPU time per record (median
     * transaction): the cost of the send path itself, which waiting on the broker and other processes hardly touch.
     */
    Result result() {
        double total = Arrays.stream(nanos).sum();
        return new Result(Workload.RECORDS_PER_TRANSACTION * 1e9 / median(nanos),
                nanos.length * (double) Workload.RECORDS_PER_TRANSACTION * 1e9 / total,
                (writer.transactionsBegun() - begunBefore) / (double) nanos.length,
                median(cpuNanos) / 1e3 / Workload.RECORDS_PER_TRANSACTION);
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }
}
