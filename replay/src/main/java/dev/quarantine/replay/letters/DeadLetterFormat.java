package dev.quarantine.replay.letters;

import java.util.List;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import dev.quarantine.txn.DeadLetterHeaders;

/**
 * Who wrote a dead letter, told by its header families. A dead letter carries more than one family only when a
 * record that was dead-lettered once kept the headers (Kafka Connect, Kafka Streams and Spring Kafka copy the failed
 * record's headers) and failed again elsewhere; then the first row that matches decides, in this written order:
 *
 * <table>
 * <caption>Precedence of the formats</caption>
 * <tr><th>format</th><th>recognised by a non-null header</th></tr>
 * <tr><td>connect</td><td>{@code __connect.errors.exception.class.name} or {@code __connect.errors.topic}
 *     (Kafka Connect's own DLQ, and our sink)</td></tr>
 * <tr><td>streams</td><td>{@code __streams.errors.exception} or {@code __streams.errors.topic} (KIP-1034, and our
 *     Streams handler)</td></tr>
 * <tr><td>share-group</td><td>{@code __dlq.errors.topic} or {@code __dlq.errors.group} (KIP-1191)</td></tr>
 * <tr><td>spring</td><td>{@code kafka_dlt-original-topic}, {@code kafka_dlt-exception-fqcn} or
 *     {@code kafka_dlt-key-exception-fqcn}</td></tr>
 * <tr><td>quarantine</td><td>{@code __quarantine.error.category} without any family above</td></tr>
 * <tr><td>unknown</td><td>none of them: counted and shown, never replayed to a guessed destination</td></tr>
 * </table>
 *
 * <p>Our own {@code __quarantine.*} headers (target topic, application id, ...) are read on top of whichever family
 * the dead letter carries. The error families, whose headers a replay does not copy onto the record it writes back,
 * are {@link #ERROR_HEADER_PREFIXES}.
 */
public enum DeadLetterFormat {
    CONNECT("connect", DeadLetterHeaders.CONNECT_EXCEPTION, DeadLetterHeaders.CONNECT_TOPIC),
    STREAMS("streams", DeadLetterHeaders.STREAMS_EXCEPTION, DeadLetterHeaders.STREAMS_TOPIC),
    SHARE_GROUP("share-group", ForeignHeaders.SHARE_TOPIC, ForeignHeaders.SHARE_GROUP),
    SPRING("spring", ForeignHeaders.SPRING_ORIGINAL_TOPIC, ForeignHeaders.SPRING_EXCEPTION,
            ForeignHeaders.SPRING_KEY_EXCEPTION),
    QUARANTINE("quarantine", DeadLetterHeaders.ERROR_CATEGORY),
    UNKNOWN("unknown");

    /** Header name prefixes of the error and context families: never copied onto a replayed record. */
    public static final List<String> ERROR_HEADER_PREFIXES = List.of("__connect.errors.", "__streams.errors.",
            ForeignHeaders.SHARE_PREFIX, ForeignHeaders.SPRING_PREFIX, "__quarantine.");

    private final String label;
    private final List<String> markers;

    DeadLetterFormat(String label, String... markers) {
        this.label = label;
        this.markers = List.of(markers);
    }

    /** The name shown by the monitor, its JSON answers and the dashboard. */
    public String label() {
        return label;
    }

    /** The format of a dead letter with these headers, by the precedence above. */
    public static DeadLetterFormat of(Headers headers) {
        if (headers != null) {
            for (DeadLetterFormat format : values()) {
                if (format.markers.stream().anyMatch(name -> present(headers, name))) {
                    return format;
                }
            }
        }
        return UNKNOWN;
    }

    /** Whether a header of that name belongs to an error or context family. */
    public static boolean isErrorHeader(String name) {
        return ERROR_HEADER_PREFIXES.stream().anyMatch(name::startsWith);
    }

    private static boolean present(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header != null && header.value() != null;
    }
}
