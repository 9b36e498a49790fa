package dev.quarantine.connect.sink;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The worker's SinkTaskContext as the task's handler uses it, remembering the partitions it asked the worker to seek
 * since the last put: Connect's WorkerSinkTask applies the seeks (and sets its current offsets to them) at its next
 * poll, before it delivers the next batch, so until then its current offsets of those partitions are not where the
 * task resumes them (see {@link SinkTaskHandler#preCommit}).
 */
final class SeekingContext implements SinkTaskContext {

    private final SinkTaskContext worker;
    private final Set<TopicPartition> sought = ConcurrentHashMap.newKeySet();

    SeekingContext(SinkTaskContext worker) {
        this.worker = worker;
    }

    /** A put began: the worker polled since the seeks asked before it, and applied them. */
    void delivering() {
        sought.clear();
    }

    /** Whether the task asked the worker to seek any partition since the last put began (see {@link PutOutcome}). */
    boolean soughtSincePutBegan() {
        return !sought.isEmpty();
    }

    /** Whether the task asked the worker to seek {@code partition} since the last put began. */
    boolean sought(TopicPartition partition) {
        return sought.contains(partition);
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        sought.addAll(offsets.keySet());
        worker.offset(offsets);
    }

    @Override
    public void offset(TopicPartition partition, long offset) {
        sought.add(partition);
        worker.offset(partition, offset);
    }

    @Override
    public Map<String, String> configs() {
        return worker.configs();
    }

    @Override
    public void timeout(long timeoutMs) {
        worker.timeout(timeoutMs);
    }

    @Override
    public Set<TopicPartition> assignment() {
        return worker.assignment();
    }

    @Override
    public void pause(TopicPartition... partitions) {
        worker.pause(partitions);
    }

    @Override
    public void resume(TopicPartition... partitions) {
        worker.resume(partitions);
    }

    @Override
    public void requestCommit() {
        worker.requestCommit();
    }

    @Override
    public ErrantRecordReporter errantRecordReporter() {
        return worker.errantRecordReporter();
    }

    /** Only on workers of Kafka 4.1 and later (see {@link TaskMetrics}); the handler never calls it. */
    @Override
    public PluginMetrics pluginMetrics() {
        return worker.pluginMetrics();
    }
}
