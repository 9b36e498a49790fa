package dev.quarantine.connect.sink.metrics;

import java.util.LinkedHashMap;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * Where the task registers its metrics ({@link SinkMetrics}). On Kafka Connect 4.1 and later the worker's plugin
 * metrics ({@code SinkTaskContext.pluginMetrics()}, KIP-877): Connect adds the {@code connector} and {@code task} tags
 * and removes the metrics with the task. That API does not exist before 4.1; there the task keeps metrics of its own
 * under the same names, group ({@code plugins}) and tags, over JMX as
 * {@code kafka.connect:type=plugins,connector=<name>,task=<id>,...}, as 4.1 shows them, and closes them when it stops.
 */
public interface TaskMetrics extends AutoCloseable {

    Sensor addSensor(String name);

    MetricName metricName(String name, String description, LinkedHashMap<String, String> tags);

    @Override
    void close();

    /** The worker's plugin metrics where the worker has them, metrics of the task's own before Connect 4.1. */
    static TaskMetrics of(SinkTaskContext context, String connector, String task) {
        return hasPluginMetrics() ? new WorkerPluginMetrics(context.pluginMetrics())
                : OwnTaskMetrics.create(connector, task);
    }

    /**
     * Whether the worker's {@link SinkTaskContext} has {@code pluginMetrics()}: the signature of Connect's public API
     * is the one fact that tells (calling it on an older worker throws NoSuchMethodError).
     */
    private static boolean hasPluginMetrics() {
        try {
            SinkTaskContext.class.getMethod("pluginMetrics");
            return true;
        } catch (NoSuchMethodException | LinkageError e) {
            return false;
        }
    }
}
