package dev.quarantine.connect.sink.metrics;

import java.util.LinkedHashMap;
import java.util.List;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.utils.Time;

/**
 * The task's own metrics on a worker older than Kafka Connect 4.1 (no plugin metrics there): the names, group and
 * tags Connect 4.1+ gives plugin metrics, reported over JMX in Connect's domain, so dashboards need no change when
 * the worker is upgraded.
 */
final class OwnTaskMetrics implements TaskMetrics {

    static final String JMX_DOMAIN = "kafka.connect";
    static final String GROUP = "plugins";

    private final Metrics metrics;
    private final LinkedHashMap<String, String> taskTags;

    private OwnTaskMetrics(Metrics metrics, LinkedHashMap<String, String> taskTags) {
        this.metrics = metrics;
        this.taskTags = taskTags;
    }

    static OwnTaskMetrics create(String connector, String task) {
        LinkedHashMap<String, String> tags = new LinkedHashMap<>();
        tags.put("connector", connector);
        tags.put("task", task);
        return new OwnTaskMetrics(new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
                new KafkaMetricsContext(JMX_DOMAIN)), tags);
    }

    @Override
    public Sensor addSensor(String name) {
        return metrics.sensor(name);
    }

    @Override
    public MetricName metricName(String name, String description, LinkedHashMap<String, String> tags) {
        LinkedHashMap<String, String> all = new LinkedHashMap<>(taskTags);
        all.putAll(tags);
        return metrics.metricName(name, GROUP, description, all);
    }

    /** Removes the metrics (and their JMX beans). */
    @Override
    public void close() {
        metrics.close();
    }
}
