package dev.quarantine.streams;

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
 * Counts of dead-lettered records by error class, one registry per Streams {@code application.id} in this JVM, in
 * Kafka's metrics: over JMX as {@code kafka.streams:type=quarantine-dead-letter-metrics,application-id=...,
 * error-class=...}, and in {@code KafkaStreams#metrics()} through the producers of
 * {@link IgnoreSendErrorsClientSupplier}. Shared by the handler and the supplier, which Kafka Streams configures
 * separately.
 */
final class DeadLetterMetrics {

    static final String GROUP = "quarantine-dead-letter-metrics";
    private static final Map<String, DeadLetterMetrics> BY_APPLICATION = new ConcurrentHashMap<>();

    private final Metrics metrics;
    private final String applicationId;
    private final Map<String, Sensor> sensors = new ConcurrentHashMap<>();

    private DeadLetterMetrics(String applicationId) {
        this.applicationId = applicationId;
        this.metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
                new KafkaMetricsContext("kafka.streams"));
    }

    static DeadLetterMetrics of(String applicationId) {
        return BY_APPLICATION.computeIfAbsent(applicationId, DeadLetterMetrics::new);
    }

    void recordDeadLetter(Throwable error) {
        sensors.computeIfAbsent(error.getClass().getSimpleName(), this::newSensor).record();
    }

    private Sensor newSensor(String errorClass) {
        Sensor sensor = metrics.sensor("dead-letters." + errorClass);
        Map<String, String> tags = Map.of("application-id", applicationId, "error-class", errorClass);
        sensor.add(metrics.metricName("dead-letter-records-total", GROUP,
                "Output records written to the dead-letter topic instead of their topic", tags), new CumulativeCount());
        sensor.add(metrics.metricName("dead-letter-records-rate", GROUP,
                "Output records dead-lettered per second", tags), new Rate(new WindowedCount()));
        return sensor;
    }

    Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }
}
