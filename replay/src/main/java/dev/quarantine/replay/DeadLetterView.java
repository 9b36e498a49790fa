package dev.quarantine.replay;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder.HeaderStyle;
import dev.quarantine.txn.RecordPositions;

/**
 * What the replay reads from one record of a dead-letter topic: its position, payload and the context headers of
 * {@link DeadLetterHeaders}, in Kafka Connect's names (our sink, or Connect's own dead-letter queue) or Kafka Streams'
 * (our handler). Parsed once; a header that is absent or not a number reads as empty.
 */
final class DeadLetterView {

    private final ConsumerRecord<byte[], byte[]> record;
    private final HeaderStyle style;

    private DeadLetterView(ConsumerRecord<byte[], byte[]> record) {
        this.record = record;
        this.style = text(DeadLetterHeaders.STREAMS_TOPIC).isPresent()
                || text(DeadLetterHeaders.STREAMS_EXCEPTION).isPresent() ? HeaderStyle.STREAMS : HeaderStyle.CONNECT;
    }

    static DeadLetterView of(ConsumerRecord<byte[], byte[]> record) {
        return new DeadLetterView(record);
    }

    ConsumerRecord<byte[], byte[]> record() {
        return record;
    }

    /** {@code topic-partition@offset} of the dead letter itself. */
    String position() {
        return RecordPositions.of(record.topic(), record.partition(), record.offset());
    }

    HeaderStyle style() {
        return style;
    }

    /** The exception class name, as written ({@code org.apache.kafka...RecordTooLargeException}). */
    Optional<String> errorClass() {
        return text(connect() ? DeadLetterHeaders.CONNECT_EXCEPTION : DeadLetterHeaders.STREAMS_EXCEPTION);
    }

    /** The input topic: where the failed record was read from. */
    Optional<String> sourceTopic() {
        return text(connect() ? DeadLetterHeaders.CONNECT_TOPIC : DeadLetterHeaders.STREAMS_TOPIC);
    }

    Optional<Integer> sourcePartition() {
        return number(connect() ? DeadLetterHeaders.CONNECT_PARTITION : DeadLetterHeaders.STREAMS_PARTITION)
                .map(Long::intValue);
    }

    Optional<Long> sourceOffset() {
        return number(connect() ? DeadLetterHeaders.CONNECT_OFFSET : DeadLetterHeaders.STREAMS_OFFSET);
    }

    /** The topic the failed record was being written to, when the writer recorded it (ours do). */
    Optional<String> targetTopic() {
        return text(DeadLetterHeaders.TARGET_TOPIC);
    }

    Optional<Integer> targetPartition() {
        return number(DeadLetterHeaders.TARGET_PARTITION).map(Long::intValue);
    }

    Optional<String> connectorName() {
        return text(DeadLetterHeaders.CONNECT_CONNECTOR_NAME);
    }

    Optional<String> applicationId() {
        return text(DeadLetterHeaders.APPLICATION_ID);
    }

    /** Whether the payload was cut to fit the dead-letter limit ({@code __quarantine.payload.truncated} not false). */
    boolean truncated() {
        return text(DeadLetterHeaders.PAYLOAD_TRUNCATED).map(cut -> !cut.equals("false")).orElse(false);
    }

    /** {@code output}, {@code input} or {@code none} for Kafka Streams dead letters; empty otherwise. */
    Optional<String> payloadOrigin() {
        return text(DeadLetterHeaders.PAYLOAD_ORIGIN);
    }

    Optional<byte[]> sourceRawKey() {
        return bytes(DeadLetterHeaders.SOURCE_RAW_KEY);
    }

    Optional<byte[]> sourceRawValue() {
        return bytes(DeadLetterHeaders.SOURCE_RAW_VALUE);
    }

    Headers headers() {
        return record.headers();
    }

    private boolean connect() {
        return style == HeaderStyle.CONNECT;
    }

    private Optional<byte[]> bytes(String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? Optional.empty() : Optional.of(header.value());
    }

    private Optional<String> text(String name) {
        return bytes(name).map(value -> new String(value, StandardCharsets.UTF_8));
    }

    private Optional<Long> number(String name) {
        try {
            return text(name).map(value -> Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
