package dev.quarantine.replay.letters;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import dev.quarantine.txn.TopicNames;

/**
 * One dead letter's headers read as typed fields, every value hostile: of repeated headers the last counts, text is
 * bounded ({@link HeaderText}), a topic must be legal ({@link TopicNames}), a number must be whole and in range, and
 * an illegal value is reported as such ({@link HeaderValue}), never thrown.
 */
final class HeaderFields {

    /** A topic name is at most 249 ASCII characters; a longer header is illegal before it is decoded. */
    private static final int MAX_TOPIC_BYTES = 249;
    /**
     * The longest connector, application or group name taken as a name: a topic name's limit (an application id
     * prefixes its internal topics' names). A longer one is illegal, so that a forged megabyte cannot travel on into
     * the context of a new dead letter.
     */
    static final int MAX_NAME_BYTES = 249;
    /** Longer than any long in decimal with some blanks around it: illegal before it is decoded. */
    private static final int MAX_NUMBER_BYTES = 40;

    private final Headers headers;

    HeaderFields(Headers headers) {
        this.headers = headers;
    }

    Optional<byte[]> bytes(String name) {
        Header header = headers == null ? null : headers.lastHeader(name);
        return header == null || header.value() == null ? Optional.empty() : Optional.of(header.value());
    }

    /**
     * Bounded text ({@link HeaderText#decode}): cut and marked when long, {@link HeaderText#UNPARSEABLE}
     * if not UTF-8.
     */
    Optional<String> text(String name, int maxChars) {
        return bytes(name).map(value -> HeaderText.decode(value, maxChars));
    }

    /** A connector, application or group name: illegal when longer than {@value #MAX_NAME_BYTES} bytes or not UTF-8. */
    HeaderValue<String> name(String name) {
        Optional<byte[]> raw = bytes(name);
        if (raw.isEmpty()) {
            return HeaderValue.absent();
        }
        String shown = HeaderText.decode(raw.get(), HeaderText.MAX_NAME_CHARS);
        if (raw.get().length > MAX_NAME_BYTES || shown.equals(HeaderText.UNPARSEABLE)) {
            return HeaderValue.illegal(name + " is longer than " + MAX_NAME_BYTES + " bytes or not UTF-8", shown);
        }
        return HeaderValue.of(shown);
    }

    /** A topic name: illegal unless Kafka accepts it ({@link TopicNames}). */
    HeaderValue<String> topic(String name) {
        Optional<byte[]> raw = bytes(name);
        if (raw.isEmpty()) {
            return HeaderValue.absent();
        }
        String shown = HeaderText.decode(raw.get(), HeaderText.MAX_NAME_CHARS);
        if (raw.get().length > MAX_TOPIC_BYTES) {
            return HeaderValue.illegal(name + " is longer than a topic name may be", shown);
        }
        String topic = new String(raw.get(), StandardCharsets.UTF_8);
        return TopicNames.isLegal(topic) ? HeaderValue.of(topic)
                : HeaderValue.illegal(name + " is not a legal topic name (" + TopicNames.RULE + ")", shown);
    }

    /**
     * A whole number from 0 to {@code max} in decimal ASCII digits (surrounding blanks allowed): anything else (a
     * sign, a fraction, a larger value, an over-long text) is illegal.
     */
    HeaderValue<Long> decimal(String name, long max) {
        Optional<byte[]> raw = bytes(name);
        if (raw.isEmpty()) {
            return HeaderValue.absent();
        }
        String problem = name + " is not a number from 0 to " + max;
        String shown = HeaderText.decode(raw.get(), HeaderText.MAX_NUMBER_CHARS);
        if (raw.get().length > MAX_NUMBER_BYTES) {
            return HeaderValue.illegal(problem, shown);
        }
        String text = new String(raw.get(), StandardCharsets.UTF_8).trim();
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return HeaderValue.illegal(problem, shown);
        }
        try {
            long value = Long.parseLong(text);
            return value <= max ? HeaderValue.of(value) : HeaderValue.illegal(problem, shown);
        } catch (NumberFormatException e) { // more than Long.MAX_VALUE
            return HeaderValue.illegal(problem, shown);
        }
    }

    HeaderValue<Integer> decimalPartition(String name) {
        return toInt(decimal(name, Integer.MAX_VALUE));
    }

    /** A number from 0 to {@code max} as exactly {@code size} big-endian bytes (4 for an int, 8 for a long). */
    HeaderValue<Long> bigEndian(String name, int size, long max) {
        Optional<byte[]> raw = bytes(name);
        if (raw.isEmpty()) {
            return HeaderValue.absent();
        }
        if (raw.get().length != size) {
            return HeaderValue.illegal(name + " is not a " + size + "-byte big-endian number", HeaderText.UNPARSEABLE);
        }
        long value = size == Integer.BYTES ? ByteBuffer.wrap(raw.get()).getInt() : ByteBuffer.wrap(raw.get()).getLong();
        return value >= 0 && value <= max ? HeaderValue.of(value)
                : HeaderValue.illegal(name + " is not a number from 0 to " + max, String.valueOf(value));
    }

    HeaderValue<Integer> bigEndianPartition(String name) {
        return toInt(bigEndian(name, Integer.BYTES, Integer.MAX_VALUE));
    }

    private static HeaderValue<Integer> toInt(HeaderValue<Long> number) {
        return number.value().map(n -> HeaderValue.of(n.intValue()))
                .orElseGet(() -> new HeaderValue<>(Optional.empty(), number.problem(), number.shown()));
    }
}
