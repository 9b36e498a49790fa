package dev.quarantine.connect.sink;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * A SinkTaskContext that records the offsets a task asks the worker to seek to and the poll timeout it asks for,
 * with an assignment the test sets
 * (empty: as after Connect revoked everything).
 */
public final class FakeSinkTaskContext implements SinkTaskContext {

    final Map<TopicPartition, Long> seeks = new HashMap<>();
    final Set<TopicPartition> assigned = new HashSet<>();
    final TestPluginMetrics metrics = new TestPluginMetrics();
    /** The last {@link #timeout} the task asked for, -1 when none. */
    long timeoutMs = -1;

    @Override
    public Map<String, String> configs() {
        return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        seeks.putAll(offsets);
    }

    @Override
    public void offset(TopicPartition tp, long offset) {
        seeks.put(tp, offset);
    }

    @Override
    public void timeout(long timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    @Override
    public Set<TopicPartition> assignment() {
        return Set.copyOf(assigned);
    }

    @Override
    public void pause(TopicPartition... partitions) {
    }

    @Override
    public void resume(TopicPartition... partitions) {
    }

    @Override
    public void requestCommit() {
    }

    @Override
    public PluginMetrics pluginMetrics() {
        return metrics;
    }
}
