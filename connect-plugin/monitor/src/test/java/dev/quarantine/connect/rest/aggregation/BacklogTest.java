package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class BacklogTest {

    private final Map<MetricName, Metric> metrics = new LinkedHashMap<>();

    @Test
    void sumsTheCurrentLagOfEveryPartition() {
        lag("dlq-a", "0", 40.0);
        lag("dlq-a", "1", 2.0);
        lag("dlq-b", "0", 0.0);

        assertThat(Backlog.recordsBehind(metrics)).hasValue(42);
    }

    @Test
    void caughtUpUnknownOrOtherMetricsSayNothing() {
        assertThat(Backlog.recordsBehind(metrics)).as("no metrics").isEmpty();
        lag("dlq-a", "0", 0.0);
        lag("dlq-a", "1", Double.NaN);
        metrics.put(new MetricName(Backlog.LAG, Backlog.GROUP, "", Map.of("client-id", "c")), value(9.0));
        metrics.put(new MetricName("records-lag-max", Backlog.GROUP, "", Map.of("partition", "0")), value(7.0));
        metrics.put(new MetricName(Backlog.LAG, "other-group", "", Map.of("partition", "0")), value(5.0));

        assertThat(Backlog.recordsBehind(metrics)).isEmpty();
    }

    private void lag(String topic, String partition, double value) {
        metrics.put(new MetricName(Backlog.LAG, Backlog.GROUP, "", Map.of("topic", topic, "partition", partition,
                "client-id", "monitor-1")), value(value));
    }

    private static Metric value(double value) {
        return new Metric() {
            @Override
            public MetricName metricName() {
                return null;
            }

            @Override
            public Object metricValue() {
                return value;
            }
        };
    }
}
