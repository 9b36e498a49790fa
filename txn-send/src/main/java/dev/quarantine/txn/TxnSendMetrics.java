package dev.quarantine.txn;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
 * Metrics of records left out of a transaction, by error class, in Kafka's metrics registry: visible through
 * {@link TxnSendProducer#metrics()} and over JMX as {@code kafka.producer:type=txn-send-metrics,client-id=...}.
 */
final class TxnSendMetrics implements AutoCloseable {

    static final String GROUP = "txn-send-metrics";

    private final Metrics metrics;
    private final String clientId;
    private final Map<String, Sensor> sensors = new ConcurrentHashMap<>();

    TxnSendMetrics(String clientId) {
        this.clientId = clientId;
        this.metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
                new KafkaMetricsContext("kafka.producer"));
    }

    void recordSkipped(Throwable error) {
        sensors.computeIfAbsent(error.getClass().getSimpleName(), this::newSensor).record();
    }

    private Sensor newSensor(String errorClass) {
        Sensor sensor = metrics.sensor("records-skipped." + errorClass);
        Map<String, String> tags = Map.of("client-id", clientId, "error-class", errorClass);
        sensor.add(metrics.metricName("records-skipped-total", GROUP,
                "Records left out of their transaction because they could not be sent", tags), new CumulativeCount());
        sensor.add(metrics.metricName("records-skipped-rate", GROUP,
                "Records left out of their transaction per second", tags), new Rate(new WindowedCount()));
        return sensor;
    }

    Map<MetricName, ? extends org.apache.kafka.common.Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public void close() {
        metrics.close();
    }
}
