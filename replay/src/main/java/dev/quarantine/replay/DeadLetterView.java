package dev.quarantine.replay;

import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

import dev.quarantine.replay.letters.DeadLetterContext;
import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.replay.letters.DeadLetterReader;
import dev.quarantine.replay.letters.HeaderValue;
import dev.quarantine.txn.DeadLetterRecordBuilder.HeaderStyle;
import dev.quarantine.txn.RecordPositions;

/**
 * One record of a dead-letter topic as the replay sees it: the record (position, payload, timestamp) and what
 * {@link DeadLetterReader}, the one reader of every format, reads from its headers.
 */
final class DeadLetterView {

    private final ConsumerRecord<byte[], byte[]> record;
    private final DeadLetterContext context;

    private DeadLetterView(ConsumerRecord<byte[], byte[]> record) {
        this.record = record;
        this.context = DeadLetterReader.read(record.headers());
    }

    static DeadLetterView of(ConsumerRecord<byte[], byte[]> record) {
        return new DeadLetterView(record);
    }

    ConsumerRecord<byte[], byte[]> record() {
        return record;
    }

    DeadLetterContext context() {
        return context;
    }

    DeadLetterFormat format() {
        return context.format();
    }

    /** {@code topic-partition@offset} of the dead letter itself. */
    String position() {
        return RecordPositions.of(record.topic(), record.partition(), record.offset());
    }

    /** The header names a dead letter written again for this one takes: Kafka Streams' for Streams', else Connect's. */
    HeaderStyle style() {
        return context.format() == DeadLetterFormat.STREAMS ? HeaderStyle.STREAMS : HeaderStyle.CONNECT;
    }

    /** The exception class name, as written ({@code org.apache.kafka...RecordTooLargeException}). */
    Optional<String> errorClass() {
        return context.errorClass();
    }

    /** The input topic: where the failed record was read from. */
    HeaderValue<String> sourceTopic() {
        return context.originalTopic();
    }

    HeaderValue<Integer> sourcePartition() {
        return context.originalPartition();
    }

    HeaderValue<Long> sourceOffset() {
        return context.originalOffset();
    }

    /** The topic the failed record was being written to, when the writer recorded it (ours do). */
    HeaderValue<String> targetTopic() {
        return context.targetTopic();
    }

    HeaderValue<Integer> targetPartition() {
        return context.targetPartition();
    }

    /**
     * The failed record's timestamp: the format's original-timestamp header when it has one (Spring Kafka), else the
     * dead letter's own (Kafka Connect, Kafka Streams and ours keep the failed record's).
     */
    long originalTimestamp() {
        return context.originalTimestamp().orElse(record.timestamp());
    }

    /** The connector that dead-lettered it; empty when its header is illegal (too long, not UTF-8). */
    Optional<String> connectorName() {
        return context.connector().value();
    }

    /** The Kafka Streams application that dead-lettered it; empty when its header is illegal. */
    Optional<String> applicationId() {
        return context.application().value();
    }

    /** The consumer group (Spring Kafka) or share group that dead-lettered it; empty when its header is illegal. */
    Optional<String> group() {
        return context.group().value();
    }

    /** Whether the failed record's key, value or headers were cut to fit the dead-letter limit. */
    boolean truncated() {
        return context.truncated();
    }

    /** {@code output}, {@code input} or {@code none} for Kafka Streams dead letters; empty otherwise. */
    Optional<String> payloadOrigin() {
        return context.payloadOrigin();
    }

    Optional<byte[]> sourceRawKey() {
        return context.sourceRawKey();
    }

    Optional<byte[]> sourceRawValue() {
        return context.sourceRawValue();
    }

    Headers headers() {
        return record.headers();
    }
}
