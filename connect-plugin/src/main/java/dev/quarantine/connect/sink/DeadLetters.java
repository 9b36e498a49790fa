package dev.quarantine.connect.sink;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder;

/** Builds the dead-letter record of a sink record the target rejected, in Kafka Connect's header names. */
final class DeadLetters {

    private static final String CONNECT_HEADER_PREFIX = "__connect.errors.";
    private static final String STAGE = "TASK_PUT";

    private final DeadLetterRecordBuilder builder;
    private final boolean contextHeaders;
    private final String connectorName;
    private final String taskId;

    DeadLetters(String topic, int maxBytes, boolean contextHeaders, String connectorName, String taskId) {
        this.builder = new DeadLetterRecordBuilder(topic, DeadLetterRecordBuilder.HeaderStyle.CONNECT, maxBytes);
        this.contextHeaders = contextHeaders;
        this.connectorName = connectorName;
        this.taskId = taskId;
    }

    String topic() {
        return builder.topic();
    }

    /**
     * @param record    the input record
     * @param converted its target record, or null when conversion failed (then the key and value are kept only if
     *                  they arrived as bytes)
     * @param error     why it was rejected
     */
    ProducerRecord<byte[], byte[]> build(SinkRecord record, ProducerRecord<byte[], byte[]> converted, String targetTopic,
                                         Throwable error) {
        byte[] key = converted != null ? converted.key() : bytesOrNull(record.key());
        byte[] value = converted != null ? converted.value() : bytesOrNull(record.value());
        Header[] headers = converted != null ? converted.headers().toArray() : new Header[0];
        DeadLetter letter = DeadLetter.of(key, value, headers, error)
                .source(record.originalTopic(), record.originalKafkaPartition(), record.originalKafkaOffset())
                .target(targetTopic, record.kafkaPartition())
                .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, connectorName)
                .context(DeadLetterHeaders.CONNECT_TASK_ID, taskId)
                .context(DeadLetterHeaders.CONNECT_STAGE, STAGE)
                .context(DeadLetterHeaders.CONNECT_EXECUTING_CLASS, TransactionalKafkaSinkTask.class.getName());
        ProducerRecord<byte[], byte[]> built = builder.build(letter);
        return contextHeaders ? built : withoutConnectHeaders(built);
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

    private static byte[] bytesOrNull(Object data) {
        return data instanceof byte[] bytes ? bytes : null;
    }
}
