package dev.quarantine.connect;

import java.util.HashMap;
import java.util.Map;

import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;

/**
 * Kafka Connect's own dead-letter queue in front of our sink, as the monitor and replay tests produce its dead
 * letters: the records Connect's JsonConverter cannot read go there ({@code errors.tolerance=all}, with Connect's
 * context headers), never reaching our sink or its own dead-letter topic.
 */
public final class ConnectsOwnDeadLetterQueue {

    private ConnectsOwnDeadLetterQueue() {
    }

    /**
     * The config of our sink (one task, read_committed) copying schemaless JSON topic {@code topic} to
     * {@code copy.<topic>} on {@code bootstrapServers}, with Connect's dead-letter queue {@code connectDlq} and our
     * own {@code quietDlq}, which stays empty.
     */
    public static Map<String, String> jsonCopy(String bootstrapServers, String topic, String quietDlq,
                                               String connectDlq) {
        Map<String, String> config = new HashMap<>(Map.of(
                "connector.class", TransactionalKafkaSinkConnector.class.getName(),
                "tasks.max", "1", "topics", topic,
                "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable", "false",
                "target.value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "target.value.converter.schemas.enable", "false",
                "target.bootstrap.servers", bootstrapServers, "target.topic.format", "copy.${topic}",
                "dlq.topic.name", quietDlq));
        config.putAll(Map.of("consumer.override.isolation.level", "read_committed",
                "errors.tolerance", "all", "errors.deadletterqueue.topic.name", connectDlq,
                "errors.deadletterqueue.context.headers.enable", "true",
                "errors.deadletterqueue.topic.replication.factor", "1"));
        return config;
    }
}
