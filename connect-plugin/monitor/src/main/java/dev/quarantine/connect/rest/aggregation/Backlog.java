package dev.quarantine.connect.rest.aggregation;

import java.util.Map;
import java.util.OptionalLong;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * How far this worker's aggregation is behind the dead-letter topics it reads: the sum over its partitions of the
 * consumer's current {@code records-lag} (Kafka's {@code consumer-fetch-manager-metrics}, one per assigned partition),
 * read from the Kafka Streams client's metrics. While it is above zero the figures are rising towards the truth: the
 * answers say {@code catching_up}.
 */
final class Backlog {

    static final String GROUP = "consumer-fetch-manager-metrics";
    static final String LAG = "records-lag";

    private Backlog() {
    }

    /** Records behind, when any partition reports a lag above zero; empty when caught up or unknown. */
    static OptionalLong recordsBehind(Map<MetricName, ? extends Metric> metrics) {
        long behind = 0;
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            MetricName name = metric.getKey();
            if (LAG.equals(name.name()) && GROUP.equals(name.group()) && name.tags().containsKey("partition")) {
                Object value = metric.getValue().metricValue();
                if (value instanceof Double lag && !lag.isNaN() && !lag.isInfinite() && lag > 0) {
                    behind += lag.longValue();
                }
            }
        }
        return behind > 0 ? OptionalLong.of(behind) : OptionalLong.empty();
    }
}
