package dev.quarantine.streams;

import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.streams.StreamsConfig;

import dev.quarantine.txn.DeadLetterBreaker;
import dev.quarantine.txn.DeadLetterRecordBuilder;

/**
 * Settings of {@link DeadLetterProductionExceptionHandler}, given with the Streams app's configs. The dead-letter
 * topic is Kafka's own {@code errors.dead.letter.queue.topic.name}. Parsed once per app, by {@link AppDeadLetters},
 * for the handler and the supplier.
 */
public final class DeadLetterHandlerConfig extends AbstractConfig {

    private static final String GROUP = "Dead letters (Kafka Streams)";

    public static final String PRODUCTION_RETRIES_CONFIG = "quarantine.production.retries";
    public static final int PRODUCTION_RETRIES_DEFAULT = 3;
    public static final String PRODUCTION_RETRIES_DOC = "How often a retriable production error (a timeout, a"
            + " broker without enough replicas) of the same input record is answered with RETRY, which makes Kafka"
            + " Streams abort the transaction and process the task's input again. After that many tries the failing"
            + " output is dead-lettered like a poison record; a record to one of the app's internal topics or to the"
            + " dead-letter topic fails the task instead.";

    public static final String DLQ_PAYLOAD_MAX_BYTES_CONFIG = "quarantine.dlq.payload.max.bytes";
    public static final int DLQ_PAYLOAD_MAX_BYTES_DEFAULT = 1_000_000;
    public static final String DLQ_PAYLOAD_MAX_BYTES_DOC = "The largest dead-letter record to write, as the producer"
            + " measures it. A dead letter is kept within the smallest of this, the producer's max.request.size and"
            + " buffer.memory, and the dead-letter topic's max.message.bytes (read through the producer of"
            + " IgnoreSendErrorsClientSupplier): a larger failing record is truncated (stack trace, then value, then"
            + " key, then its headers), what was cut said in __quarantine.payload.truncated and its original size in"
            + " __quarantine.original.size.";

    public static final String DLQ_MAX_RATIO_CONFIG = "quarantine.dlq.max.ratio";
    public static final double DLQ_MAX_RATIO_DEFAULT = 0.5;
    public static final String DLQ_MAX_RATIO_DOC = "The breaker: when more than this share of the app's last "
            + "quarantine.dlq.window.records outputs would be dead-lettered, the task fails (FAIL) with a message that"
            + " says what they failed with, instead of parking the whole stream (an output topic deleted or"
            + " misconfigured is not a poison record). Before the window is full, the outputs not yet seen count as"
            + " written. 1.0 turns the breaker off. The written outputs are counted by the producers of"
            + " IgnoreSendErrorsClientSupplier: without the supplier there is no breaker.";

    public static final String DLQ_WINDOW_RECORDS_CONFIG = "quarantine.dlq.window.records";
    public static final int DLQ_WINDOW_RECORDS_DEFAULT = 1000;
    public static final String DLQ_WINDOW_RECORDS_DOC = "How many of the app's latest outputs (records to the"
            + " topology's output topics) the breaker (quarantine.dlq.max.ratio) looks at: one window for all the"
            + " stream threads of one KafkaStreams instance, not one per thread or task (Kafka Streams gives the"
            + " handler and the supplier the app's configs, nothing that names a thread). An output counts as written"
            + " when the broker acknowledges it, even in a transaction that is later aborted and processed again, and"
            + " as dead-lettered when the handler answers with its dead letter. Each instance of the app has its own"
            + " window; instances in one JVM with identical configs share one.";

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
                        DLQ_PAYLOAD_MAX_BYTES_DOC, GROUP, ++order, Width.SHORT, "Dead-letter max bytes")
                .define(DLQ_MAX_RATIO_CONFIG, Type.DOUBLE, DLQ_MAX_RATIO_DEFAULT, ConfigDef.Range.between(0.0, 1.0),
                        Importance.MEDIUM, DLQ_MAX_RATIO_DOC, GROUP, ++order, Width.SHORT, "Dead-letter max ratio")
                .define(DLQ_WINDOW_RECORDS_CONFIG, Type.INT, DLQ_WINDOW_RECORDS_DEFAULT, ConfigDef.Range.atLeast(1),
                        Importance.LOW, DLQ_WINDOW_RECORDS_DOC, GROUP, ++order, Width.SHORT,
                        "Dead-letter ratio window");
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

    /** A new breaker with this config's window and ratio. */
    DeadLetterBreaker breaker() {
        return new DeadLetterBreaker(getInt(DLQ_WINDOW_RECORDS_CONFIG), getDouble(DLQ_MAX_RATIO_CONFIG));
    }

    /** The app's topics as this config names them. */
    StreamsTopics topics() {
        return new StreamsTopics(applicationId(), deadLetterTopic());
    }
}
