package dev.quarantine.benchmarks;

/**
 * One size of {@link SinkScaleRun} measured on one worker: seconds until the tasks owned every partition
 * ({@link OwnedWatcher}; NaN when not seen), until every partition was open and written,
 * records/s from the connector's creation and from the first record, the broker's {@code EndTxn} requests in that
 * time (count and per second), the sink producers' sampled metrics, the worker's footprint with every producer open,
 * and the seconds of the reopen and of the two {@code tasks.max} changes (up by one, then back).
 */
record SinkScaleOutcome(double ownedSeconds, double openSeconds, double fromCreation, double fromFirst, long endTxn,
                        double endTxnPerSecond, ProducerSampler.Figures producers, WorkerFootprint footprint,
                        double reopenSeconds, double scaleUpSeconds, double scaleDownSeconds) {

    /** The figures of this size, for one line of the run's output. */
    String describe(int tasks) {
        return String.format("all owned in %.1f s, all open and written in %.1f s; %,.0f records/s from creation,"
                        + " %,.0f from the first record; broker EndTxn %,d (%,.1f/s); %s; %s; reopened and written in"
                        + " %.1f s; tasks.max %d->%d written in %.1f s, %d->%d in %.1f s", ownedSeconds, openSeconds,
                fromCreation, fromFirst, endTxn, endTxnPerSecond, producers, footprint, reopenSeconds, tasks,
                tasks + 1, scaleUpSeconds, tasks + 1, tasks, scaleDownSeconds);
    }

    /** This outcome's figures divided by {@code baseline}'s, measured in the same run. */
    String ratiosTo(SinkScaleOutcome baseline) {
        return String.format("owned time %.2f, open time %.2f, records/s from creation %.2f, from the first record"
                        + " %.2f, EndTxn/s %.2f, heap after GC %.2f, threads %.2f, connections %.2f, reopen time %.2f,"
                        + " tasks.max up %.2f, down %.2f", ownedSeconds / baseline.ownedSeconds,
                openSeconds / baseline.openSeconds, fromCreation / baseline.fromCreation,
                fromFirst / baseline.fromFirst,
                endTxnPerSecond / baseline.endTxnPerSecond, footprint.heapMiB() / baseline.footprint.heapMiB(),
                (double) footprint.threads() / baseline.footprint.threads(),
                (double) footprint.clientConnections() / baseline.footprint.clientConnections(),
                reopenSeconds / baseline.reopenSeconds, scaleUpSeconds / baseline.scaleUpSeconds,
                scaleDownSeconds / baseline.scaleDownSeconds);
    }
}
