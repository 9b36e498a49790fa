package dev.quarantine.connect.sink.metrics;

import java.util.LinkedHashMap;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;

/** The worker's plugin metrics (Kafka Connect 4.1+): loaded only there, where {@link PluginMetrics} exists. */
public final class WorkerPluginMetrics implements TaskMetrics {

    private final PluginMetrics metrics;

    public WorkerPluginMetrics(PluginMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public Sensor addSensor(String name) {
        return metrics.addSensor(name);
    }

    @Override
    public MetricName metricName(String name, String description, LinkedHashMap<String, String> tags) {
        return metrics.metricName(name, description, tags);
    }

    /** Connect closes plugin metrics with the task. */
    @Override
    public void close() {
    }
}
