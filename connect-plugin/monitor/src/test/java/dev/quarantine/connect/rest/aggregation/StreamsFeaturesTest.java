package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;

import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** On this build's kafka-streams (4.4); compat/connect runs the monitor on 4.0 and 4.1, where both fall back. */
class StreamsFeaturesTest {

    @Test
    void passesOnlySettingsTheWorkersKafkaStreamsKnows() {
        Properties props = new Properties();

        StreamsFeatures.putIfKnown(props, StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        StreamsFeatures.putIfKnown(props, "processing.exception.handler.of.kafka.9", true);

        assertThat(props).containsOnlyKeys(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG);
    }

    @Test
    void leavesTheGroupOnCloseWhereCloseOptionsExist() {
        assertThat(StreamsFeatures.LEAVES_GROUP_ON_CLOSE).isTrue();
    }
}
