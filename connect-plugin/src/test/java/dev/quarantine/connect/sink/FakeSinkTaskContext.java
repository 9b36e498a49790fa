package dev.quarantine.connect.sink;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.SinkTaskContext;

/** A SinkTaskContext that records the offsets a task asks the worker to seek to. */
final class FakeSinkTaskContext implements SinkTaskContext {

    final Map<TopicPartition, Long> seeks = new HashMap<>();
    final TestPluginMetrics metrics = new TestPluginMetrics();

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
    }

    @Override
    public Set<TopicPartition> assignment() {
        return Set.of();
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
