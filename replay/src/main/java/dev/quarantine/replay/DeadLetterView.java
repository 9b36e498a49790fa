package dev.quarantine.replay;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder.HeaderStyle;
import dev.quarantine.txn.RecordPositions;
import dev.quarantine.txn.TopicNames;

/**
 * What the replay reads from one record of a dead-letter topic: its position, payload and the context headers of
 * {@link DeadLetterHeaders}, in Kafka Connect's names (our sink, or Connect's own dead-letter queue) or Kafka Streams'
 * (our handler). The headers that name a destination (topic, partition, offset) are parsed defensively into a
 * {@link HeaderValue}: absent, legal, or illegal (see {@link #topicHeader}, {@link #numberHeader}).
 */
final class DeadLetterView {

    /** A topic name is at most 249 ASCII characters; a longer header is illegal before it is decoded. */
    private static final int MAX_TOPIC_BYTES = 249;
    /**
     * The longest connector name or application id kept: a topic name's limit (an application id prefixes its
     * internal topics' names; a longer connector name is not one anybody types).
     */
    static final int MAX_NAME_BYTES = 249;
    /** Longer than any long in decimal with some blanks around it: illegal before it is decoded. */
    private static final int MAX_NUMBER_BYTES = 40;

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
    HeaderValue<String> sourceTopic() {
        return topicHeader(sourceTopicHeader());
    }

    HeaderValue<Integer> sourcePartition() {
        return partition(sourcePartitionHeader());
    }

    HeaderValue<Long> sourceOffset() {
        return numberHeader(connect() ? DeadLetterHeaders.CONNECT_OFFSET : DeadLetterHeaders.STREAMS_OFFSET,
                Long.MAX_VALUE);
    }

    /** The name of the header holding the input topic, in this dead letter's style. */
    private String sourceTopicHeader() {
        return connect() ? DeadLetterHeaders.CONNECT_TOPIC : DeadLetterHeaders.STREAMS_TOPIC;
    }

    /** The name of the header holding the input partition, in this dead letter's style. */
    private String sourcePartitionHeader() {
        return connect() ? DeadLetterHeaders.CONNECT_PARTITION : DeadLetterHeaders.STREAMS_PARTITION;
    }

    /** The topic the failed record was being written to, when the writer recorded it (ours do). */
    HeaderValue<String> targetTopic() {
        return topicHeader(DeadLetterHeaders.TARGET_TOPIC);
    }

    HeaderValue<Integer> targetPartition() {
        return partition(DeadLetterHeaders.TARGET_PARTITION);
    }

    /** The connector that dead-lettered it; empty when longer than {@value #MAX_NAME_BYTES} bytes. */
    Optional<String> connectorName() {
        return name(DeadLetterHeaders.CONNECT_CONNECTOR_NAME);
    }

    /** The Kafka Streams application that dead-lettered it; empty when longer than {@value #MAX_NAME_BYTES} bytes. */
    Optional<String> applicationId() {
        return name(DeadLetterHeaders.APPLICATION_ID);
    }

    /**
     * Whether the failed record's key, value or headers were cut to fit the dead-letter limit
     * ({@link DeadLetterHeaders#recordCut}): shortened context values alone leave it whole.
     */
    boolean truncated() {
        return text(DeadLetterHeaders.PAYLOAD_TRUNCATED).map(DeadLetterHeaders::recordCut).orElse(false);
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

    /**
     * Header {@code name} as the name of a connector or an application, which a dead letter failing again carries on
     * into its new dead letter: left out when over-long, so that a forged megabyte cannot make that dead letter
     * unwritable (the new dead letter is cut to fit its topic, but its context headers are not).
     */
    private Optional<String> name(String name) {
        return bytes(name).filter(value -> value.length <= MAX_NAME_BYTES)
                .map(value -> new String(value, StandardCharsets.UTF_8));
    }

    private Optional<String> text(String name) {
        return bytes(name).map(value -> new String(value, StandardCharsets.UTF_8));
    }

    /** Header {@code name} as a topic name: illegal unless Kafka accepts it ({@link TopicNames}). */
    private HeaderValue<String> topicHeader(String name) {
        Optional<byte[]> raw = bytes(name);
        if (raw.isEmpty()) {
            return HeaderValue.absent();
        }
        if (raw.get().length > MAX_TOPIC_BYTES) {
            return HeaderValue.illegal(name + " is longer than a topic name may be");
        }
        String topic = new String(raw.get(), StandardCharsets.UTF_8);
        return TopicNames.isLegal(topic) ? HeaderValue.of(topic)
                : HeaderValue.illegal(name + " is not a legal topic name (" + TopicNames.RULE + ")");
    }

    /**
     * Header {@code name} as a whole number from 0 to {@code max}, in decimal ASCII digits (surrounding blanks
     * allowed): anything else (a sign, a fraction, a larger value, an over-long text) is illegal.
     */
    private HeaderValue<Long> numberHeader(String name, long max) {
        Optional<byte[]> raw = bytes(name);
        if (raw.isEmpty()) {
            return HeaderValue.absent();
        }
        String problem = name + " is not a number from 0 to " + max;
        if (raw.get().length > MAX_NUMBER_BYTES) {
            return HeaderValue.illegal(problem);
        }
        String text = new String(raw.get(), StandardCharsets.UTF_8).trim();
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return HeaderValue.illegal(problem);
        }
        try {
            long value = Long.parseLong(text);
            return value <= max ? HeaderValue.of(value) : HeaderValue.illegal(problem);
        } catch (NumberFormatException e) { // more than Long.MAX_VALUE
            return HeaderValue.illegal(problem);
        }
    }

    private HeaderValue<Integer> partition(String name) {
        HeaderValue<Long> number = numberHeader(name, Integer.MAX_VALUE);
        return number.illegal() ? HeaderValue.illegal(number.problem().orElseThrow())
                : number.value().map(n -> HeaderValue.of(n.intValue())).orElseGet(HeaderValue::absent);
    }
}
