package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StreamsTopicsTest {

    private final StreamsTopics topics = new StreamsTopics("orders-app", Optional.of("orders-app-dlq"));

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "orders-app-totals-changelog,                                         CHANGELOG",
        "orders-app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog,        CHANGELOG",
        "orders-app-by-customer-repartition,                                  REPARTITION",
        "orders-app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic, REPARTITION",
        "orders-app-dlq,                                                      DEAD_LETTER",
        "other-app-totals-changelog,                                          OUTPUT",
        "orders-changelog,                                                    OUTPUT",
        "orders-app-enriched,                                                 OUTPUT",
        "enriched-orders-app-x-repartition,                                   OUTPUT",
    })
    void knowsTheAppsInternalTopicsByPrefixAndSuffix(String topic, TopicKind expected) {
        assertThat(topics.kind(topic)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} from node {1}: {2}")
    @CsvSource({
        "orders-app-totals-changelog, ,      CHANGELOG",
        "legacy-store-log,            ,      CHANGELOG",
        "orders-app-dlq,              ,      DEAD_LETTER",
        "legacy-store-log,            sink,  OUTPUT",
    })
    void takesAWriteWithoutAProcessorNodeForAChangelogWrite(String topic, String node, TopicKind expected) {
        assertThat(topics.kind(topic, node)).isEqualTo(expected);
    }
}
