package dev.quarantine.txn;

import java.util.Collection;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.Headers;

/**
 * The up-front checks of {@link TxnSendOption#IGNORE_SEND_ERRORS}: everything that would make the producer or the
 * broker reject one record, decided before the record enters a batch. A failed check throws the exception Kafka
 * itself would raise for that record, with a message naming the topic and the limit.
 */
final class RecordChecks {

    private final int maxRequestSize;
    private final long bufferMemory;
    /** The smaller of the two producer limits, for the fast comparison. */
    private final int producerLimit;
    private final TopicMetadataCache topics;
    /**
     * The topic name checked last, compared by identity so the usual case (the same String for every record to a
     * topic) skips the character scan. A benign race: whatever a thread reads here was checked.
     */
    private String lastLegalTopic;
    /** A wall-clock reading not later than now (the last one taken), for the timestamp checks' fast path. */
    private volatile long clockFloorMs = System.currentTimeMillis();

    /**
     * @param topics the topic metadata to check against, or null to check only what the producer checks
     */
    RecordChecks(int maxRequestSize, long bufferMemory, TopicMetadataCache topics) {
        this.maxRequestSize = maxRequestSize;
        this.bufferMemory = bufferMemory;
        this.producerLimit = (int) Math.min(maxRequestSize, bufferMemory);
        this.topics = topics;
    }

    /**
     * The largest record, as {@link RecordSizes#producerEstimate} measures it, that passes these checks for
     * {@code topic}: the smallest of {@code max.request.size}, {@code buffer.memory} and, when it is known, the
     * topic's {@code max.message.bytes} (the estimate is never below the size of the batch the broker checks).
     */
    int maxRecordBytes(String topic) {
        int limit = producerLimit;
        if (topics != null) {
            TopicInfo info = topics.get(topic);
            if (info.maxMessageBytes().isPresent()) {
                limit = Math.min(limit, info.maxMessageBytes().getAsInt());
            }
        }
        return limit;
    }

    /**
     * Describes those of {@code topics} not yet known all at once ({@link TopicMetadataCache#prefetch}); answers which
     * exist. None without topic checks.
     */
    Set<String> prefetch(Collection<String> topics, long deadlineNanos) {
        return this.topics == null ? Set.of() : this.topics.prefetch(topics, deadlineNanos);
    }

    /**
     * Throws the exception that sending this serialized record would end in, or returns when it can be sent. A record
     * clearly within every size limit ({@link RecordSizes#upperBound}) is not sized exactly.
     */
    void check(String topic, Integer partition, Long timestamp, byte[] key, byte[] value, Headers headers) {
        requireLegal(topic);
        int bound = RecordSizes.upperBound(key, value, headers);
        if (bound > producerLimit) {
            checkProducerLimits(topic, key, value, headers);
        }
        if (topics != null) {
            checkAgainstTopic(topic, partition, timestamp, key, value, headers, bound);
        }
    }

    private void requireLegal(String topic) {
        if (topic != lastLegalTopic) {
            TopicNames.validate(topic);
            lastLegalTopic = topic;
        }
    }

    private void checkProducerLimits(String topic, byte[] key, byte[] value, Headers headers) {
        int estimate = RecordSizes.producerEstimate(key, value, headers.toArray());
        if (estimate > maxRequestSize) {
            throw new RecordTooLargeException("The record to " + topic + " is " + estimate + " bytes when serialized,"
                    + " larger than " + maxRequestSize + ", the value of " + ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        }
        if (estimate > bufferMemory) {
            throw new RecordTooLargeException("The record to " + topic + " is " + estimate + " bytes when serialized,"
                    + " larger than " + bufferMemory + ", the value of " + ProducerConfig.BUFFER_MEMORY_CONFIG);
        }
    }

    private void checkAgainstTopic(String topic, Integer partition, Long timestamp, byte[] key, byte[] value,
                                   Headers headers, int bound) {
        TopicInfo info = topics.get(topic);
        if (!info.exists()) {
            if (topics.autoCreateEnabled()) {
                return;
            }
            throw new UnknownTopicOrPartitionException("Topic " + topic + " does not exist and the brokers do not"
                    + " create topics on first use (auto.create.topics.enable=false)");
        }
        if (partition != null && partition >= info.partitions()) {
            info = topics.recheck(topic);
            if (partition >= info.partitions()) {
                throw new UnknownTopicOrPartitionException("Partition " + partition + " of topic " + topic
                        + " does not exist: the topic has " + info.partitions() + " partitions");
            }
        }
        if (info.compacted() && key == null) {
            throw new InvalidRecordException("Topic " + topic + " is compacted (" + TopicConfig.CLEANUP_POLICY_CONFIG
                    + " includes compact) and rejects records with a null key");
        }
        if (info.maxMessageBytes().isPresent() && bound > info.maxMessageBytes().getAsInt()) {
            checkTopicLimit(topic, key, value, headers, info.maxMessageBytes().getAsInt());
        }
        if (info.createTime() && timestamp != null) {
            checkTimestamp(topic, timestamp, info);
        }
    }

    private static void checkTopicLimit(String topic, byte[] key, byte[] value, Headers headers, int limit) {
        int batch = RecordSizes.singleRecordBatch(key, value, headers.toArray());
        if (batch > limit) {
            throw new RecordTooLargeException("The record to " + topic + " is " + batch + " bytes in its batch,"
                    + " larger than " + limit + ", the topic's " + TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
        }
    }
    /**
     * The topic's timestamp limits, checked against the broker's rule {@code now - timestamp > before.max.ms} /
     * {@code timestamp - now > after.max.ms}. Without a clock read when neither can fail: Kafka's default
     * {@code before.max.ms} ({@code Long.MAX_VALUE}) never does, and a timestamp within {@code after.max.ms} of an
     * earlier clock reading is within it of now.
     */
    private void checkTimestamp(String topic, long timestamp, TopicInfo info) {
        OptionalLong before = info.beforeMaxMs();
        OptionalLong after = info.afterMaxMs();
        boolean beforeCannotFail = before.isEmpty() || before.getAsLong() == Long.MAX_VALUE;
        if (beforeCannotFail && (after.isEmpty() || timestamp - clockFloorMs <= after.getAsLong())) {
            return;
        }
        long now = System.currentTimeMillis();
        clockFloorMs = now;
        if (before.isPresent() && now - timestamp > before.getAsLong()) {
            throw new InvalidTimestampException("The record to " + topic + " has timestamp " + timestamp + ", "
                    + (now - timestamp) + " ms in the past, more than the topic's "
                    + TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG + " (" + before.getAsLong() + ")");
        }
        if (after.isPresent() && timestamp - now > after.getAsLong()) {
            throw new InvalidTimestampException("The record to " + topic + " has timestamp " + timestamp + ", "
                    + (timestamp - now) + " ms in the future, more than the topic's "
                    + TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG + " (" + after.getAsLong() + ")");
        }
    }
}
