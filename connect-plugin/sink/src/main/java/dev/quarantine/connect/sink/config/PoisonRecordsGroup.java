package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_CONTEXT_HEADERS_ENABLE_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_CONTEXT_HEADERS_ENABLE_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_PAYLOAD_MAX_BYTES_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_TOPIC_NAME_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_TOPIC_NAME_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.SEND_ERRORS_TOLERANCE_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.SEND_ERRORS_TOLERANCE_DEFAULT;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

import dev.quarantine.txn.ConfigGroup;
import dev.quarantine.txn.DeadLetterRecordBuilder;

/**
 * The settings of the group "Poison records" of {@link TransactionalSinkConfig}: what happens to a record the
 * target cluster would reject: the tolerance and the dead-letter topic.
 */
final class PoisonRecordsGroup {

    static final String NAME = "Poison records";

    static final String SEND_ERRORS_TOLERANCE_DOC = "all: a record the target cluster would reject (too"
            + " large for the topic, a null key for a compacted topic, a timestamp out of the topic's range, a"
            + " partition it does not have, a conversion failure, ...) goes to dlq.topic.name in the same"
            + " transaction, and the batch commits. none: the task fails on the first such record, naming its"
            + " topic, partition and offset; nothing of its batch is committed.";

    static final String DLQ_TOPIC_NAME_DOC = "The dead-letter topic, on the target cluster (it joins the same"
            + " transaction as the records). Required with send.errors.tolerance=all. It must exist.";

    static final String DLQ_CONTEXT_HEADERS_ENABLE_DOC = "Whether dead letters carry Kafka Connect's"
            + " __connect.errors.* headers (source topic, partition, offset, connector, task, exception class,"
            + " message and stack trace). The __quarantine.* headers (error category, target topic, original size,"
            + " what was truncated) are always added: they mark a record as a dead letter.";

    static final String DLQ_PAYLOAD_MAX_BYTES_DOC = "The largest dead-letter record (key, value and headers)."
            + " A larger one is truncated (stack trace, then value, then key, then the original headers), never"
            + " dropped; __quarantine.payload.truncated says what was cut. Keep it at or below the dead-letter"
            + " topic's max.message.bytes and target.producer.max.request.size.";

    private PoisonRecordsGroup() {
    }

    static void define(ConfigDef def) {
        new ConfigGroup(def, NAME)
                .define(SEND_ERRORS_TOLERANCE_CONFIG, Type.STRING, SEND_ERRORS_TOLERANCE_DEFAULT,
                        ConfigDef.CaseInsensitiveValidString.in("all", "none"), Importance.HIGH,
                        SEND_ERRORS_TOLERANCE_DOC, Width.SHORT, "Send errors tolerance")
                .define(DLQ_TOPIC_NAME_CONFIG, Type.STRING, DLQ_TOPIC_NAME_DEFAULT, Validators.OPTIONAL_TOPIC_NAME,
                        Importance.HIGH, DLQ_TOPIC_NAME_DOC, Width.MEDIUM, "Dead-letter topic")
                .define(DLQ_CONTEXT_HEADERS_ENABLE_CONFIG, Type.BOOLEAN, DLQ_CONTEXT_HEADERS_ENABLE_DEFAULT, null,
                        Importance.MEDIUM, DLQ_CONTEXT_HEADERS_ENABLE_DOC, Width.SHORT, "Dead-letter context headers")
                .define(DLQ_PAYLOAD_MAX_BYTES_CONFIG, Type.INT, DLQ_PAYLOAD_MAX_BYTES_DEFAULT,
                        ConfigDef.Range.atLeast(DeadLetterRecordBuilder.MIN_MAX_BYTES), Importance.MEDIUM,
                        DLQ_PAYLOAD_MAX_BYTES_DOC, Width.SHORT, "Dead-letter max bytes");
    }
}
