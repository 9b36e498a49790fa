package dev.quarantine.connect.sink.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.Value;

import dev.quarantine.txn.ErrorClassMetrics;

/**
 * The task's metrics, registered through {@code SinkTaskContext.pluginMetrics()} (Connect adds the connector and
 * task tags), or on a worker older than 4.1 the same names of the task's own ({@link TaskMetrics}): records written,
 * records dead-lettered by error class, transactions committed and aborted, commit latency, partitions re-established
 * after their producer was fenced, and what ownership does in a rebalance: partitions claimed, transactional ids
 * fenced, partitions lost to another task's claim, and partitions owned now (a gauge). The {@code error-class}
 * tag is {@link ErrorClassMetrics#errorClass}, as on the producer's and the Streams handler's metrics.
 */
public final class SinkMetrics {

    private final TaskMetrics metrics;
    private final Sensor written;
    private final Sensor committed;
    private final Sensor aborted;
    private final Sensor commitLatency;
    private final Sensor reestablished;
    private final Sensor commitsRedone;
    private final Sensor claimed;
    private final Sensor fenced;
    private final Sensor lost;
    private final Sensor owned;
    private final Map<String, Sensor> deadLettered = new ConcurrentHashMap<>();

    public SinkMetrics(TaskMetrics metrics) {
        this.metrics = metrics;
        this.written = counter("records-written", "records written to the target topics");
        this.committed = counter("transactions-committed", "transactions committed");
        this.aborted = counter("transactions-aborted", "transactions aborted (and retried or handed back)");
        this.reestablished = counter("partitions-reestablished", "partitions re-established (a new producer, the"
                + " progress read again) after their producer was fenced or broke");
        this.commitsRedone = counter("commits-lost-to-aborts-redone", "source partitions whose last committed"
                + " transaction was found aborted on the target (its markers skipped by a broker, then an abort of the"
                + " same producer id) and redone (rule V)");
        this.claimed = counter("partitions-claimed", "source partitions claimed in the progress topic (a claim record"
                + " committed by the task's producer, as each newly assigned partition is)");
        this.fenced = counter("producers-fenced", "transactional ids of earlier holders fenced"
                + " (Admin.fenceProducers) before the progress of the partitions they held was read");
        this.lost = counter("partitions-lost", "assigned source partitions found claimed by another task's id and"
                + " paused until Connect takes them away (a stale assignment, or a zombie's)");
        this.owned = metrics.addSensor("partitions-owned");
        owned.add(metrics.metricName("partitions-owned", "source partitions the task writes now: claimed, their"
                + " earlier holders fenced, their progress read and checked (the others of its assignment are still"
                + " opening, or lost)", new LinkedHashMap<>()), new Value());
        this.commitLatency = metrics.addSensor("commit-latency");
        commitLatency.add(metrics.metricName("commit-latency-avg", "average time to commit a transaction, in ms",
                new LinkedHashMap<>()), new Avg());
        commitLatency.add(metrics.metricName("commit-latency-max", "longest time to commit a transaction, in ms",
                new LinkedHashMap<>()), new Max());
    }

    /** Removes the task's own metrics (before Connect 4.1; Connect removes plugin metrics itself). */
    public void close() {
        metrics.close();
    }

    public void recordsWritten(int count) {
        written.record(count);
    }

    public void deadLettered(Throwable error) {
        String errorClass = ErrorClassMetrics.errorClass(error);
        deadLettered.computeIfAbsent(errorClass, this::deadLetterSensor).record();
    }

    public void committed(long latencyMs) {
        committed.record();
        commitLatency.record(latencyMs);
    }

    public void aborted() {
        aborted.record();
    }

    public void reestablished() {
        reestablished.record();
    }

    public void commitsRedone(int partitions) {
        commitsRedone.record(partitions);
    }

    /** What one advance of a slot's ownership did: partitions claimed, ids fenced, partitions lost. */
    public void ownership(int claimedPartitions, int fencedIds, int lostPartitions) {
        claimed.record(claimedPartitions);
        fenced.record(fencedIds);
        lost.record(lostPartitions);
    }

    /** How many source partitions the task writes now (set after each advance of its slots' ownership). */
    public void owned(int partitions) {
        owned.record(partitions);
    }

    private Sensor deadLetterSensor(String errorClass) {
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("error-class", errorClass);
        Sensor sensor = metrics.addSensor("records-dead-lettered-" + errorClass);
        sensor.add(metrics.metricName("records-dead-lettered-total", "records dead-lettered, by error class", tags),
                new CumulativeSum());
        sensor.add(metrics.metricName("records-dead-lettered-rate", "records dead-lettered per second, by error class",
                tags), new Rate());
        return sensor;
    }

    private Sensor counter(String name, String description) {
        Sensor sensor = metrics.addSensor(name);
        sensor.add(metrics.metricName(name + "-total", "total " + description, new LinkedHashMap<>()),
                new CumulativeSum());
        sensor.add(metrics.metricName(name + "-rate", description + " per second", new LinkedHashMap<>()), new Rate());
        return sensor;
    }
}
