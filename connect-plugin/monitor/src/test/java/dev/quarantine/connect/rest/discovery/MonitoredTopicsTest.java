package dev.quarantine.connect.rest.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * What makes two {@link MonitoredTopics} the same aggregation: the topics they read and how wide those are now (the
 * changelog topics' partition count). MonitorTopicsChangedIT has the aggregation on a real broker.
 */
class MonitoredTopicsTest {

    private final MonitoredTopics regex = new MonitoredTopics(Map.of(), List.of("orders-dlq"),
            Optional.of(Pattern.compile(".*-dlt")));

    @Test
    void theSameTopicsAsWideAreTheSameAggregation() {
        assertThat(regex.withWidth(3).subscribesSame(regex.withWidth(3))).isTrue();
        assertThat(regex.withWidth(3).fingerprint()).isEqualTo(regex.withWidth(3).fingerprint());
    }

    @Test
    void theSameTopicsNowWiderOrNarrowerAreANewAggregation() {
        assertThat(regex.withWidth(3).subscribesSame(regex.withWidth(2))).isFalse();
        assertThat(regex.withWidth(3).subscribesSame(regex.withWidth(4))).isFalse();
        assertThat(regex.withWidth(3).fingerprint()).isNotEqualTo(regex.withWidth(2).fingerprint());
    }

    @Test
    void aWidthNotKnownKeepsTheAggregationOfTheSubscriptionAlone() {
        assertThat(regex.withWidth(0).fingerprint()).isEqualTo(regex.fingerprint());
        assertThat(regex.withWidth(0).subscribesSame(regex)).isTrue();
    }

    @Test
    void keepsWhatItNamesWithItsWidth() {
        MonitoredTopics named = new MonitoredTopics(Map.of("copy-dlq", new java.util.TreeSet<>(List.of("copy"))),
                List.of("orders-dlq"), Optional.empty()).withWidth(5);

        assertThat(named.names()).containsExactly("copy-dlq", "orders-dlq");
        assertThat(named.connectorOf("copy-dlq")).isEqualTo("copy");
        assertThat(named).hasToString("[copy-dlq, orders-dlq], 5 partitions wide");
    }
}
