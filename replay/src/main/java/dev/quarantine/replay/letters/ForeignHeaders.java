package dev.quarantine.replay.letters;

/**
 * Header names of dead letters that neither this project nor Kafka Connect or Kafka Streams writes (those are in
 * {@link dev.quarantine.txn.DeadLetterHeaders}), as their writers spell and encode them.
 */
public final class ForeignHeaders {

    /**
     * Share groups (KIP-1191, Kafka 4.4): written by the broker ({@code ShareGroupDLQStateManager}), every value a
     * UTF-8 string, numbers in decimal. The dead letter's own timestamp is the time the broker wrote it; key and value
     * are the failed record's only when the group sets {@code errors.deadletterqueue.copy.record.enable}; the
     * failed record's headers are never copied.
     */
    public static final String SHARE_PREFIX = "__dlq.errors.";
    public static final String SHARE_TOPIC = SHARE_PREFIX + "topic";
    public static final String SHARE_PARTITION = SHARE_PREFIX + "partition";
    public static final String SHARE_OFFSET = SHARE_PREFIX + "offset";
    public static final String SHARE_GROUP = SHARE_PREFIX + "group";
    public static final String SHARE_DELIVERY_COUNT = SHARE_PREFIX + "delivery.count";
    public static final String SHARE_MESSAGE = SHARE_PREFIX + "message";

    /**
     * Spring Kafka's {@code DeadLetterPublishingRecoverer} ({@code KafkaHeaders.DLT_*}): topic, class names, message,
     * stack trace, group and timestamp type are UTF-8 strings; partition is a 4-byte and offset and timestamp are
     * 8-byte big-endian numbers. The dead letter's own timestamp is the time it was published (Spring does not set
     * one); the failed record's is in {@link #SPRING_ORIGINAL_TIMESTAMP}.
     */
    public static final String SPRING_PREFIX = "kafka_dlt-";
    public static final String SPRING_ORIGINAL_TOPIC = SPRING_PREFIX + "original-topic";
    public static final String SPRING_ORIGINAL_PARTITION = SPRING_PREFIX + "original-partition";
    public static final String SPRING_ORIGINAL_OFFSET = SPRING_PREFIX + "original-offset";
    public static final String SPRING_ORIGINAL_TIMESTAMP = SPRING_PREFIX + "original-timestamp";
    public static final String SPRING_ORIGINAL_TIMESTAMP_TYPE = SPRING_PREFIX + "original-timestamp-type";
    public static final String SPRING_ORIGINAL_CONSUMER_GROUP = SPRING_PREFIX + "original-consumer-group";
    public static final String SPRING_EXCEPTION = SPRING_PREFIX + "exception-fqcn";
    public static final String SPRING_EXCEPTION_CAUSE = SPRING_PREFIX + "exception-cause-fqcn";
    public static final String SPRING_EXCEPTION_MESSAGE = SPRING_PREFIX + "exception-message";
    public static final String SPRING_KEY_EXCEPTION = SPRING_PREFIX + "key-exception-fqcn";
    public static final String SPRING_KEY_EXCEPTION_MESSAGE = SPRING_PREFIX + "key-exception-message";

    private ForeignHeaders() {
    }
}
