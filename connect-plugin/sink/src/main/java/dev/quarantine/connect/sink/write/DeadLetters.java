package dev.quarantine.connect.sink.write;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.TransactionalKafkaSinkTask;
import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder;

/**
 * Builds the dead-letter record of a sink record the target rejected, in Kafka Connect's header names, with the sink
 * record's timestamp (the one its target record has, {@link RecordConverter}), as Kafka Connect's own dead-letter
 * queue keeps the input record's.
 */
public final class DeadLetters {

    private static final String CONNECT_HEADER_PREFIX = "__connect.errors.";
    private static final String STAGE = "TASK_PUT";

    private final DeadLetterRecordBuilder builder;
    private final boolean contextHeaders;
    private final String connectorName;
    private final String taskId;

    public DeadLetters(String topic, int maxBytes, boolean contextHeaders, String connectorName, String taskId) {
        this.builder = new DeadLetterRecordBuilder(topic, DeadLetterRecordBuilder.HeaderStyle.CONNECT, maxBytes);
        this.contextHeaders = contextHeaders;
        this.connectorName = connectorName;
        this.taskId = taskId;
    }

    String topic() {
        return builder.topic();
    }

    /**
     * Builds the dead letter within {@code acceptedBytes}, the largest record the sending producer accepts for the
     * dead-letter topic ({@link TxnSendSlotProducer#maxRecordBytes}) and within {@code dlq.payload.max.bytes}.
     *
     * @param record    the input record
     * @param converted its target record, or null when the target converters failed on it: then the key, value and
     *                  headers are the input's in the fallback encoding of {@link PayloadFallback}, named by the
     *                  {@code __quarantine.key.encoding} and {@code __quarantine.value.encoding} headers
     * @param error     why it was rejected
     * @throws org.apache.kafka.common.errors.RecordTooLargeException when not even a minimal dead letter fits
     */
    ProducerRecord<byte[], byte[]> build(SinkRecord record, ProducerRecord<byte[], byte[]> converted, String targetTopic,
                                         Throwable error, int acceptedBytes) {
        DeadLetter letter = converted != null
                ? DeadLetter.of(converted.key(), converted.value(), converted.headers().toArray(), error)
                : fallback(record, error);
        letter.source(record.originalTopic(), record.originalKafkaPartition(), record.originalKafkaOffset())
                .target(targetTopic, record.kafkaPartition())
                .timestamp(record.timestamp())
                .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, connectorName)
                .context(DeadLetterHeaders.CONNECT_TASK_ID, taskId)
                .context(DeadLetterHeaders.CONNECT_STAGE, STAGE)
                .context(DeadLetterHeaders.CONNECT_EXECUTING_CLASS, TransactionalKafkaSinkTask.class.getName());
        ProducerRecord<byte[], byte[]> built = builder.build(letter, acceptedBytes);
        return contextHeaders ? built : withoutConnectHeaders(built);
    }

    private static DeadLetter fallback(SinkRecord record, Throwable error) {
        PayloadFallback.Encoded key = PayloadFallback.encode(record.keySchema(), record.key());
        PayloadFallback.Encoded value = PayloadFallback.encode(record.valueSchema(), record.value());
        return DeadLetter.of(key.bytes(), value.bytes(), PayloadFallback.headers(record), error)
                .context(DeadLetterHeaders.KEY_ENCODING, key.encoding())
                .context(DeadLetterHeaders.VALUE_ENCODING, value.encoding());
    }

    private static ProducerRecord<byte[], byte[]> withoutConnectHeaders(ProducerRecord<byte[], byte[]> record) {
        RecordHeaders headers = new RecordHeaders();
        for (Header header : record.headers()) {
            if (!header.key().startsWith(CONNECT_HEADER_PREFIX)) {
                headers.add(header);
            }
        }
        return new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), record.key(),
                record.value(), headers);
    }
}
