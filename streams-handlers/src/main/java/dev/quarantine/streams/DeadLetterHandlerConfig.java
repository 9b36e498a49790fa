package dev.quarantine.streams;

import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.streams.StreamsConfig;

import dev.quarantine.txn.DeadLetterRecordBuilder;

/**
 * Settings of {@link DeadLetterProductionExceptionHandler}, given with the Streams app's configs. The dead-letter
 * topic is Kafka's own {@code errors.dead.letter.queue.topic.name}.
 */
public final class DeadLetterHandlerConfig extends AbstractConfig {

    private static final String GROUP = "Dead letters (Kafka Streams)";

    public static final String PRODUCTION_RETRIES_CONFIG = "quarantine.production.retries";
    public static final int PRODUCTION_RETRIES_DEFAULT = 3;
    public static final String PRODUCTION_RETRIES_DOC = "How often a retriable production error (a timeout, a"
            + " broker without enough replicas) of the same input record is answered with RETRY, which makes Kafka"
            + " Streams abort the transaction and process the task's input again. After that many tries the failing"
            + " output is dead-lettered like a poison record.";

    public static final String DLQ_PAYLOAD_MAX_BYTES_CONFIG = "quarantine.dlq.payload.max.bytes";
    public static final int DLQ_PAYLOAD_MAX_BYTES_DEFAULT = 1_000_000;
    public static final String DLQ_PAYLOAD_MAX_BYTES_DOC = "The largest dead-letter record to write, as the producer"
            + " measures it. A larger failing record is truncated (stack trace, then value, then key, then its"
            + " headers) and its original size recorded in __quarantine.original.size. Keep it at or below the"
            + " producer's max.request.size and the dead-letter topic's max.message.bytes.";

    public DeadLetterHandlerConfig(Map<?, ?> configs) {
        super(configDef(), configs, false);
    }

    /** The definition of every setting of the handler, with documentation. */
    public static ConfigDef configDef() {
        int order = 0;
        return new ConfigDef()
                .define(PRODUCTION_RETRIES_CONFIG, Type.INT, PRODUCTION_RETRIES_DEFAULT, ConfigDef.Range.atLeast(0),
                        Importance.LOW, PRODUCTION_RETRIES_DOC, GROUP, ++order, Width.SHORT, "Production retries")
                .define(DLQ_PAYLOAD_MAX_BYTES_CONFIG, Type.INT, DLQ_PAYLOAD_MAX_BYTES_DEFAULT,
                        ConfigDef.Range.atLeast(DeadLetterRecordBuilder.MIN_MAX_BYTES), Importance.LOW,
                        DLQ_PAYLOAD_MAX_BYTES_DOC, GROUP, ++order, Width.SHORT, "Dead-letter max bytes");
    }

    /** Kafka's {@code errors.dead.letter.queue.topic.name}, when set. */
    Optional<String> deadLetterTopic() {
        Object topic = originals().get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        return topic == null || topic.toString().isBlank() ? Optional.empty() : Optional.of(topic.toString().trim());
    }

    /** The Streams {@code application.id}, which names the handler's metrics. */
    String applicationId() {
        Object id = originals().get(StreamsConfig.APPLICATION_ID_CONFIG);
        return id == null ? "unknown" : id.toString();
    }

    int productionRetries() {
        return getInt(PRODUCTION_RETRIES_CONFIG);
    }

    int payloadMaxBytes() {
        return getInt(DLQ_PAYLOAD_MAX_BYTES_CONFIG);
    }
}
