package dev.quarantine.benchmarks;

import dev.quarantine.benchmarks.TxnSendThroughput.Result;
import dev.quarantine.benchmarks.TxnSendThroughput.Run;

/** One (mode, poison ratio) of a round: its workload, its writer, and the time its timed transactions took. */
final class Measurement {

    private final Run run;
    private final Workload workload;
    private final TransactionWriter writer;
    private long nanos;
    private long failedBefore;
    private long begunBefore;

    Measurement(Run run, Workload workload, TransactionWriter writer) {
        this.run = run;
        this.workload = workload;
        this.writer = writer;
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
            nanos += System.nanoTime() - start;
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

    Result result() {
        int timed = workload.transactionCount() - 1;
        return new Result(timed * (double) Workload.RECORDS_PER_TRANSACTION * 1e9 / nanos,
                (writer.transactionsBegun() - begunBefore) / (double) timed);
    }
}
