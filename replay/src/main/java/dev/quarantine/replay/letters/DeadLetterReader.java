package dev.quarantine.replay.letters;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Pattern;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.record.TimestampType;

import dev.quarantine.txn.DeadLetterHeaders;

/**
 * The one reader of dead-letter headers, used by the monitor, its JSON answers and dashboard, and the replay. It tells
 * the format ({@link DeadLetterFormat}: the family whose marker header comes last) and maps that format's headers onto
 * one {@link DeadLetterContext}:
 *
 * <table>
 * <caption>Fields per format</caption>
 * <tr><th>format</th><th>error class</th><th>original topic, partition, offset</th><th>original timestamp</th>
 *     <th>group or application</th></tr>
 * <tr><td>connect</td><td>{@code __connect.errors.exception.class.name}</td><td>{@code __connect.errors.topic},
 *     {@code .partition}, {@code .offset} (decimal)</td><td>the dead letter's own</td>
 *     <td>{@code __connect.errors.connector.name}</td></tr>
 * <tr><td>streams</td><td>{@code __streams.errors.exception}: a class name, or (early 4.2 builds) the exception's
 *     {@code toString()}, of which the class name before the first {@code :} is taken</td>
 *     <td>{@code __streams.errors.topic}, {@code .partition}, {@code .offset} (decimal)</td>
 *     <td>the dead letter's own</td><td>{@code __quarantine.application.id} (ours)</td></tr>
 * <tr><td>share-group</td><td>none recorded</td><td>{@code __dlq.errors.topic}, {@code .partition}, {@code .offset}
 *     (decimal)</td><td>none recorded (the dead letter's own is when the broker wrote it)</td>
 *     <td>{@code __dlq.errors.group}</td></tr>
 * <tr><td>spring</td><td>{@code kafka_dlt-exception-cause-fqcn} (the root cause: the exception itself is mostly
 *     the container's {@code ListenerExecutionFailedException}), else {@code kafka_dlt-exception-fqcn}, else
 *     {@code kafka_dlt-key-exception-fqcn}</td><td>{@code kafka_dlt-original-topic}, {@code -partition} (4-byte),
 *     {@code -offset} (8-byte big-endian)</td><td>{@code kafka_dlt-original-timestamp} (8-byte) and
 *     {@code -timestamp-type}</td><td>{@code kafka_dlt-original-consumer-group}</td></tr>
 * <tr><td>quarantine, unknown</td><td>none</td><td>none</td><td>the dead letter's own</td><td>ours, if any</td></tr>
 * </table>
 *
 * <p>Our {@code __quarantine.*} headers (target topic and partition, application id, payload origin, truncation,
 * sizes, raw input) are read only when our writer wrote them ({@link DeadLetterFormat.Authorship#ourHeaders()}: else
 * they are the failed record's, absent here); {@code __connect.errors.connector.name} (which our replay writes onto
 * Kafka Streams dead letters it dead-letters again) is read with every format. A header that is malformed leaves its
 * field absent or illegal; nothing throws.
 */
public final class DeadLetterReader {

    /** A Java class name: dot-separated identifiers ({@code $} for nested classes). */
    private static final String IDENTIFIER = "[\\p{L}_$][\\p{L}\\p{N}_$]*";
    private static final Pattern CLASS_NAME = Pattern.compile(IDENTIFIER + "(\\." + IDENTIFIER + ")*");
    /**
     * The latest original timestamp taken (9999-12-31T23:59:59.999Z, the last instant with a four-digit year): the
     * one bound of a timestamp header, so that the replay's time filter, the time it writes and the monitor's JSON
     * see the same value; a later one is illegal (the dead letter's own timestamp is used).
     */
    public static final long MAX_ORIGINAL_TIMESTAMP = 253_402_300_799_999L;
    /** Longer than any timestamp type's name: not one. */
    private static final int MAX_TIMESTAMP_TYPE_CHARS = 20;

    private DeadLetterReader() {
    }

    /** Reads the dead letter whose headers these are. */
    public static DeadLetterContext read(Headers headers) {
        HeaderFields fields = new HeaderFields(headers);
        DeadLetterFormat.Authorship authorship = DeadLetterFormat.authorship(headers);
        DeadLetterFormat format = authorship.format();
        HeaderFields ours = authorship.ourHeaders() ? fields : new HeaderFields(null);
        Origin origin = switch (format) {
            case CONNECT -> decimalOrigin(fields, DeadLetterHeaders.CONNECT_TOPIC, DeadLetterHeaders.CONNECT_PARTITION,
                    DeadLetterHeaders.CONNECT_OFFSET);
            case STREAMS -> decimalOrigin(fields, DeadLetterHeaders.STREAMS_TOPIC, DeadLetterHeaders.STREAMS_PARTITION,
                    DeadLetterHeaders.STREAMS_OFFSET);
            case SHARE_GROUP -> decimalOrigin(fields, ForeignHeaders.SHARE_TOPIC, ForeignHeaders.SHARE_PARTITION,
                    ForeignHeaders.SHARE_OFFSET);
            case SPRING -> new Origin(fields.topic(ForeignHeaders.SPRING_ORIGINAL_TOPIC),
                    fields.bigEndianPartition(ForeignHeaders.SPRING_ORIGINAL_PARTITION),
                    fields.bigEndian(ForeignHeaders.SPRING_ORIGINAL_OFFSET, Long.BYTES, Long.MAX_VALUE));
            case QUARANTINE, UNKNOWN -> new Origin(HeaderValue.absent(), HeaderValue.absent(), HeaderValue.absent());
        };
        boolean connect = format == DeadLetterFormat.CONNECT;
        boolean spring = format == DeadLetterFormat.SPRING;
        return new DeadLetterContext(format, errorClass(fields, format), errorMessage(fields, format),
                origin.topic, origin.partition, origin.offset,
                spring ? originalTimestamp(fields) : OptionalLong.empty(),
                spring ? timestampType(fields) : Optional.empty(),
                fields.name(DeadLetterHeaders.CONNECT_CONNECTOR_NAME),
                ours.name(DeadLetterHeaders.APPLICATION_ID), group(fields, format),
                connect ? fields.text(DeadLetterHeaders.CONNECT_TASK_ID, HeaderText.MAX_NAME_CHARS) : Optional.empty(),
                connect ? fields.text(DeadLetterHeaders.CONNECT_STAGE, HeaderText.MAX_NAME_CHARS) : Optional.empty(),
                deliveryCount(fields, format), ours.topic(DeadLetterHeaders.TARGET_TOPIC),
                ours.decimalPartition(DeadLetterHeaders.TARGET_PARTITION),
                ours.text(DeadLetterHeaders.PAYLOAD_ORIGIN, HeaderText.MAX_NAME_CHARS),
                ours.text(DeadLetterHeaders.PAYLOAD_TRUNCATED, HeaderText.MAX_NAME_CHARS)
                        .map(DeadLetterHeaders::recordCut).orElse(false),
                ours.decimal(DeadLetterHeaders.ORIGINAL_SIZE, Long.MAX_VALUE).value(),
                ours.bytes(DeadLetterHeaders.SOURCE_RAW_KEY), ours.bytes(DeadLetterHeaders.SOURCE_RAW_VALUE));
    }

    private record Origin(HeaderValue<String> topic, HeaderValue<Integer> partition, HeaderValue<Long> offset) {
    }

    private static Origin decimalOrigin(HeaderFields fields, String topic, String partition, String offset) {
        return new Origin(fields.topic(topic), fields.decimalPartition(partition),
                fields.decimal(offset, Long.MAX_VALUE));
    }

    private static Optional<String> errorClass(HeaderFields fields, DeadLetterFormat format) {
        Optional<String> text = switch (format) {
            case CONNECT -> className(fields, DeadLetterHeaders.CONNECT_EXCEPTION);
            case STREAMS -> className(fields, DeadLetterHeaders.STREAMS_EXCEPTION);
            case SPRING -> className(fields, ForeignHeaders.SPRING_EXCEPTION_CAUSE)
                    .or(() -> className(fields, ForeignHeaders.SPRING_EXCEPTION))
                    .or(() -> className(fields, ForeignHeaders.SPRING_KEY_EXCEPTION));
            case SHARE_GROUP, QUARANTINE, UNKNOWN -> Optional.empty();
        };
        return text;
    }

    /**
     * The class name a header holds: the whole text, or the text before the first {@code :} (an exception's
     * {@code toString()}), when that is a Java class name of at most {@value HeaderText#MAX_NAME_CHARS} characters;
     * anything else (spaces, markup, a cut text) is no class name: the error class is unknown.
     */
    private static Optional<String> className(HeaderFields fields, String name) {
        return fields.text(name, HeaderText.MAX_NAME_CHARS).flatMap(text -> {
            int colon = text.indexOf(':');
            String head = colon < 0 ? text : text.substring(0, colon).trim();
            return CLASS_NAME.matcher(head).matches() ? Optional.of(head) : Optional.empty();
        });
    }

    private static Optional<String> errorMessage(HeaderFields fields, DeadLetterFormat format) {
        return switch (format) {
            case CONNECT -> fields.text(DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, HeaderText.MAX_MESSAGE_CHARS);
            case STREAMS -> fields.text(DeadLetterHeaders.STREAMS_EXCEPTION_MESSAGE, HeaderText.MAX_MESSAGE_CHARS);
            case SHARE_GROUP -> fields.text(ForeignHeaders.SHARE_MESSAGE, HeaderText.MAX_MESSAGE_CHARS);
            case SPRING -> fields.text(ForeignHeaders.SPRING_EXCEPTION_MESSAGE, HeaderText.MAX_MESSAGE_CHARS)
                    .or(() -> fields.text(ForeignHeaders.SPRING_KEY_EXCEPTION_MESSAGE, HeaderText.MAX_MESSAGE_CHARS));
            case QUARANTINE, UNKNOWN -> Optional.empty();
        };
    }

    private static HeaderValue<String> group(HeaderFields fields, DeadLetterFormat format) {
        return switch (format) {
            case SHARE_GROUP -> fields.name(ForeignHeaders.SHARE_GROUP);
            case SPRING -> fields.name(ForeignHeaders.SPRING_ORIGINAL_CONSUMER_GROUP);
            default -> HeaderValue.absent();
        };
    }

    private static OptionalInt deliveryCount(HeaderFields fields, DeadLetterFormat format) {
        if (format != DeadLetterFormat.SHARE_GROUP) {
            return OptionalInt.empty();
        }
        return fields.decimal(ForeignHeaders.SHARE_DELIVERY_COUNT, Short.MAX_VALUE).value()
                .map(count -> OptionalInt.of(count.intValue())).orElseGet(OptionalInt::empty);
    }

    private static OptionalLong originalTimestamp(HeaderFields fields) {
        return fields.bigEndian(ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP, Long.BYTES, MAX_ORIGINAL_TIMESTAMP).value()
                .map(OptionalLong::of).orElseGet(OptionalLong::empty);
    }

    /** {@code CreateTime} or {@code LogAppendTime} ({@link TimestampType#name}); anything else is no type. */
    private static Optional<TimestampType> timestampType(HeaderFields fields) {
        return fields.text(ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP_TYPE, MAX_TIMESTAMP_TYPE_CHARS)
                .filter(name -> name.equals(TimestampType.CREATE_TIME.name)
                        || name.equals(TimestampType.LOG_APPEND_TIME.name))
                .map(TimestampType::forName);
    }
}
