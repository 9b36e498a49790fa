package dev.quarantine.connect.rest.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.connect.runtime.ConnectorConfig;
import org.apache.kafka.connect.runtime.SinkConnectorConfig;
import org.junit.jupiter.api.Test;

class TopicDiscoveryTest {

    @Test
    void readsTheSettingNamesConnectDefines() {
        assertThat(TopicDiscovery.CONNECTOR_CLASS_CONFIG).isEqualTo(ConnectorConfig.CONNECTOR_CLASS_CONFIG);
        assertThat(TopicDiscovery.CONNECT_DLQ_CONFIG).isEqualTo(SinkConnectorConfig.DLQ_TOPIC_NAME_CONFIG);
    }

    @Test
    void findsConnectsOwnDeadLetterTopicOfAnySinkAndOursOnlyOnOurSink() {
        assertThat(TopicDiscovery.dlqTopics(Map.of("connector.class", "FileStreamSink",
                "errors.deadletterqueue.topic.name", " connect-dlq ", "dlq.topic.name", "not-ours")))
                .containsExactly("connect-dlq");
        assertThat(TopicDiscovery.dlqTopics(Map.of("connector.class", TopicDiscovery.SINK_CLASS,
                "dlq.topic.name", "sink-dlq"))).containsExactly("sink-dlq");
        assertThat(TopicDiscovery.dlqTopics(Map.of("connector.class", "TransactionalKafkaSinkConnector",
                "dlq.topic.name", "sink-dlq"))).as("by its alias").containsExactly("sink-dlq");
        assertThat(TopicDiscovery.dlqTopics(null)).isEmpty();
    }
}
