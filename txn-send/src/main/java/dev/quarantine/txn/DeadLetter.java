package dev.quarantine.txn;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.common.header.Header;

/**
 * What went wrong with one record, as input to {@link DeadLetterRecordBuilder}: its raw bytes and headers, the
 * exception, and where it came from and was going.
 */
public final class DeadLetter {

    private static final Header[] NO_HEADERS = new Header[0];

    private final byte[] key;
    private final byte[] value;
    private final Header[] headers;
    private final Throwable error;
    private String sourceTopic;
    private Integer sourcePartition;
    private Long sourceOffset;
    private String targetTopic;
    private Integer targetPartition;
    private Long timestamp;
    private byte[] sourceRawKey;
    private byte[] sourceRawValue;
    private final Map<String, String> context = new LinkedHashMap<>();

    private DeadLetter(byte[] key, byte[] value, Header[] headers, Throwable error) {
        this.key = key;
        this.value = value;
        this.headers = headers == null ? NO_HEADERS : headers;
        this.error = Objects.requireNonNull(error, "error");
    }

    /** The failed record's serialized key and value (either may be null), its headers, and why it failed. */
    public static DeadLetter of(byte[] key, byte[] value, Header[] headers, Throwable error) {
        return new DeadLetter(key, value, headers, error);
    }

    /** Where the record was read from (the input record's topic, partition and offset). */
    public DeadLetter source(String topic, int partition, long offset) {
        this.sourceTopic = topic;
        this.sourcePartition = partition;
        this.sourceOffset = offset;
        return this;
    }

    /** Where the record was being written; {@code partition} may be null. */
    public DeadLetter target(String topic, Integer partition) {
        this.targetTopic = topic;
        this.targetPartition = partition;
        return this;
    }

    /**
     * The failed record's timestamp, which the dead letter keeps (as Kafka Connect's and Kafka Streams' dead-letter
     * queues do), so that a replay puts the record back at its own time; null or negative (Kafka's "no timestamp"):
     * the producer stamps the dead letter when it sends it (as it does when the error is an InvalidTimestampException:
     * the dead-letter topic may reject that timestamp too).
     */
    public DeadLetter timestamp(Long timestamp) {
        this.timestamp = timestamp == null || timestamp < 0 ? null : timestamp;
        return this;
    }

    /**
     * The input record's raw key and value (either may be null), when the record that failed was produced from an input
     * record that Kafka Streams hands its production handler: the builder writes them as
     * {@link DeadLetterHeaders#SOURCE_RAW_KEY}/{@link DeadLetterHeaders#SOURCE_RAW_VALUE}. Only what a caller sets here
     * is written: a failed record's own headers of those names (its producer's choice) are dropped.
     */
    public DeadLetter sourceRaw(byte[] key, byte[] value) {
        this.sourceRawKey = key;
        this.sourceRawValue = value;
        return this;
    }

    /** An extra header, such as {@link DeadLetterHeaders#CONNECT_CONNECTOR_NAME}; null values are skipped. */
    public DeadLetter context(String header, String value) {
        if (value != null) {
            context.put(header, value);
        }
        return this;
    }

    byte[] key() {
        return key;
    }

    byte[] value() {
        return value;
    }

    Header[] headers() {
        return headers;
    }

    Throwable error() {
        return error;
    }

    String sourceTopic() {
        return sourceTopic;
    }

    Integer sourcePartition() {
        return sourcePartition;
    }

    Long sourceOffset() {
        return sourceOffset;
    }

    String targetTopic() {
        return targetTopic;
    }

    Integer targetPartition() {
        return targetPartition;
    }

    Long timestamp() {
        return timestamp;
    }

    byte[] sourceRawKey() {
        return sourceRawKey;
    }

    byte[] sourceRawValue() {
        return sourceRawValue;
    }

    Map<String, String> context() {
        return context;
    }

    /** {@code topic-partition@offset} of the source ({@link RecordPositions}), for messages; never the key or value. */
    public String describe() {
        if (sourceTopic != null) {
            return RecordPositions.of(sourceTopic, sourcePartition, sourceOffset);
        }
        return targetTopic == null ? "(unknown record)"
                : "a record to " + targetTopic + (targetPartition == null ? "" : "-" + targetPartition);
    }
}
