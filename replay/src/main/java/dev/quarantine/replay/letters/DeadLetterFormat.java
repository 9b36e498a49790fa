package dev.quarantine.replay.letters;

import java.util.List;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import dev.quarantine.txn.DeadLetterHeaders;

/**
 * Who wrote a dead letter, told by its header families. A dead letter carries more than one family when the failed
 * record carried one already (Kafka Connect, Kafka Streams and Spring Kafka copy the failed record's headers: a record
 * read from a dead-letter topic and dead-lettered again) or when a producer forged one. Every writer appends its own
 * headers after the record's, so the family whose marker header comes <em>last</em> wrote the letter; the families'
 * order says nothing:
 *
 * <table>
 * <caption>Formats and their marker headers</caption>
 * <tr><th>format</th><th>marker headers (with a non-null value)</th></tr>
 * <tr><td>connect</td><td>{@code __connect.errors.exception.class.name} or {@code __connect.errors.topic}
 *     (Kafka Connect's own DLQ, and our sink)</td></tr>
 * <tr><td>streams</td><td>{@code __streams.errors.exception} or {@code __streams.errors.topic} (KIP-1034, and our
 *     Streams handler)</td></tr>
 * <tr><td>share-group</td><td>{@code __dlq.errors.topic} or {@code __dlq.errors.group} (KIP-1191)</td></tr>
 * <tr><td>spring</td><td>{@code kafka_dlt-original-topic}, {@code kafka_dlt-exception-fqcn} or
 *     {@code kafka_dlt-key-exception-fqcn}</td></tr>
 * <tr><td>quarantine</td><td>{@code __quarantine.error.category}, and no marker of the four above; or a share-group
 *     or Spring marker only before it (the failed record's own: our writers never write those families, so such a
 *     marker came with the record, as on our sink's letters with {@code dlq.context.headers.enable=false})</td></tr>
 * <tr><td>unknown</td><td>none of them: counted and shown, never replayed to a guessed destination</td></tr>
 * </table>
 *
 * <p>Our own {@code __quarantine.*} headers never decide the format, and they are the letter's own
 * ({@link Authorship#ourHeaders()}) only when our writer wrote {@code __quarantine.error.category}, which it always
 * writes after its family's headers: format quarantine (no other family), or connect or streams with that header after
 * the family's last marker. A letter without it is not ours, whatever {@code __quarantine.*} headers it carries
 * (format unknown when no family marks it: never routed). Our writer drops every {@code __quarantine.*} header of the
 * failed record that it writes itself (see {@code DeadLetterRecordBuilder}), so the ones read are its own. On a
 * share-group or Spring letter (those writers never write ours), and on Kafka Connect's or Kafka Streams' own letter
 * of a record that was our dead letter (its {@code __quarantine.error.category} comes before the family's markers),
 * they are the failed record's headers, never a routing instruction. The error families, whose headers a replay does
 * not copy onto the record it writes back, are {@link #ERROR_HEADER_PREFIXES}.
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
            ForeignHeaders.SHARE_PREFIX, ForeignHeaders.SPRING_PREFIX, DeadLetterHeaders.QUARANTINE_PREFIX);

    /** Who wrote a dead letter, and whether its {@code __quarantine.*} headers are the writer's (see above). */
    public record Authorship(DeadLetterFormat format, boolean ourHeaders) {
    }

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

    /** The format of a dead letter with these headers: the family whose marker comes last. */
    public static DeadLetterFormat of(Headers headers) {
        return authorship(headers).format();
    }

    /** Who wrote a dead letter with these headers, by the rule above. */
    public static Authorship authorship(Headers headers) {
        if (headers == null) {
            return new Authorship(UNKNOWN, false);
        }
        DeadLetterFormat writer = null;
        int writerMarker = -1;
        int ourMarker = -1;
        int index = 0;
        for (Header header : headers) {
            if (header.value() != null) {
                DeadLetterFormat family = markedBy(header.key());
                if (family == QUARANTINE) {
                    ourMarker = index;
                } else if (family != null) {
                    writer = family;
                    writerMarker = index;
                }
            }
            index++;
        }
        if (writer == null) {
            return ourMarker >= 0 ? new Authorship(QUARANTINE, true) : new Authorship(UNKNOWN, false);
        }
        if (ourMarker < writerMarker) {
            return new Authorship(writer, false);
        }
        // ours came last: our writers write Kafka Connect's or Kafka Streams' context headers themselves, before our
        // category; a Spring Kafka or share-group marker before it was the failed record's own (copied, or forged)
        return writer == CONNECT || writer == STREAMS ? new Authorship(writer, true) : new Authorship(QUARANTINE, true);
    }

    /** Whether a header of that name belongs to an error or context family. */
    public static boolean isErrorHeader(String name) {
        return ERROR_HEADER_PREFIXES.stream().anyMatch(name::startsWith);
    }

    private static DeadLetterFormat markedBy(String name) {
        for (DeadLetterFormat format : values()) {
            if (format.markers.contains(name)) {
                return format;
            }
        }
        return null;
    }
}
