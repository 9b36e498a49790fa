package dev.quarantine.replay.letters;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.apache.kafka.common.record.TimestampType;

/**
 * What {@link DeadLetterReader} reads from one dead letter's headers, the same for every format: every text bounded,
 * every value that could name a destination validated ({@link HeaderValue}).
 *
 * @param format            who wrote it ({@link DeadLetterFormat})
 * @param errorClass        the exception class name, when the format records one (share groups do not)
 * @param errorMessage      the exception message (often quotes the payload: shown only when payloads are exposed)
 * @param originalTopic     where the failed record was read from (Connect, Streams, share groups, Spring)
 * @param originalTimestamp the failed record's timestamp, when the format records it apart from the dead letter's
 *                          own (Spring Kafka)
 * @param originalTimestampType its type, with {@code originalTimestamp}
 * @param connector         Kafka Connect's connector name
 * @param application       the Kafka Streams application id (ours)
 * @param group             the consumer group (Spring) or share group
 * @param targetTopic       ours: the topic the failed record was being written to
 * @param payloadOrigin     ours (Streams): {@code output}, {@code input} or {@code none}
 * @param truncated         ours: the failed record's key, value or headers were cut to fit
 */
public record DeadLetterContext(DeadLetterFormat format, Optional<String> errorClass, Optional<String> errorMessage,
                                HeaderValue<String> originalTopic, HeaderValue<Integer> originalPartition,
                                HeaderValue<Long> originalOffset, OptionalLong originalTimestamp,
                                Optional<TimestampType> originalTimestampType, HeaderValue<String> connector,
                                HeaderValue<String> application, HeaderValue<String> group, Optional<String> task,
                                Optional<String> stage, OptionalInt deliveryCount, HeaderValue<String> targetTopic,
                                HeaderValue<Integer> targetPartition, Optional<String> payloadOrigin,
                                boolean truncated, Optional<Long> originalSize, Optional<byte[]> sourceRawKey,
                                Optional<byte[]> sourceRawValue) {

    /** The group, application or connector that dead-lettered it, in that order, as bounded text. */
    public Optional<String> groupOrApplication() {
        return group.shown().or(application::shown).or(connector::shown);
    }
}
