package dev.quarantine.txn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.WindowedCount;
import org.apache.kafka.common.utils.Time;

/**
 * A count and a rate of failed records by error class, in a Kafka metrics registry of its own reported over JMX as
 * {@code <namespace>:type=<group>,<tags>,error-class=<simple class name>}: {@code <name>-total} and
 * {@code <name>-rate}.
 */
public final class ErrorClassMetrics implements AutoCloseable {

    private final Metrics metrics;
    private final String group;
    private final String name;
    private final String description;
    private final Map<String, String> tags;
    private final Map<String, Sensor> sensors = new ConcurrentHashMap<>();

    /**
     * @param namespace   JMX domain, such as {@code kafka.producer} or {@code kafka.streams}
     * @param group       metric group, the JMX {@code type}
     * @param name        metric name stem: {@code name-total} and {@code name-rate}
     * @param description what is counted, for the metric descriptions
     * @param tags        tags every metric carries besides {@code error-class}
     */
    public ErrorClassMetrics(String namespace, String group, String name, String description,
                             Map<String, String> tags) {
        this.group = group;
        this.name = name;
        this.description = description;
        this.tags = Map.copyOf(tags);
        this.metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
                new KafkaMetricsContext(namespace));
    }

    /** Counts one record that failed with {@code error}. */
    public void record(Throwable error) {
        sensors.computeIfAbsent(errorClass(error), this::newSensor).record();
    }

    /**
     * The {@code error-class} tag of {@code error}, the one way every metric of this project names an error class:
     * the simple class name of the error inside any {@code ExecutionException}/{@code CompletionException}. Simple,
     * because a tag value is read on dashboards and in JMX object names; the dead-letter record's exception header
     * keeps the full class name for the rare same-named classes.
     */
    public static String errorClass(Throwable error) {
        return SendErrors.unwrap(error).getClass().getSimpleName();
    }

    public Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public void close() {
        metrics.close();
    }

    private Sensor newSensor(String errorClass) {
        Sensor sensor = metrics.sensor(name + "." + errorClass);
        Map<String, String> withClass = new HashMap<>(tags);
        withClass.put("error-class", errorClass);
        sensor.add(metrics.metricName(name + "-total", group, description, withClass), new CumulativeCount());
        sensor.add(metrics.metricName(name + "-rate", group, description + ", per second", withClass),
                new Rate(new WindowedCount()));
        return sensor;
    }
}
