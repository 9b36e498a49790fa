package dev.quarantine.benchmarks;

import java.util.Arrays;

import dev.quarantine.benchmarks.TxnSendThroughput.Result;
import dev.quarantine.benchmarks.TxnSendThroughput.Run;

/** One (mode, poison ratio) of a round: its workload, its writer, and the time each timed transaction took. */
final class Measurement {

    private final Run run;
    private final Workload workload;
    private final TransactionWriter writer;
    private final long[] nanos;
    private long failedBefore;
    private long begunBefore;

    Measurement(Run run, Workload workload, TransactionWriter writer) {
        this.run = run;
        this.workload = workload;
        this.writer = writer;
        this.nanos = new long[workload.transactionCount() - 1];
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
            long start = System.nanoTime();
            writer.write(workload.transaction(t));
            nanos[t - 1] = System.nanoTime() - start;
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
     * the total time, and transactions begun per batch.
     */
    Result result() {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
        double total = Arrays.stream(nanos).sum();
        return new Result(Workload.RECORDS_PER_TRANSACTION * 1e9 / median,
                nanos.length * (double) Workload.RECORDS_PER_TRANSACTION * 1e9 / total,
                (writer.transactionsBegun() - begunBefore) / (double) nanos.length);
    }
}
