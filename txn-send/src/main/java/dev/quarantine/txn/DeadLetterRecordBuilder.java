package dev.quarantine.txn;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Builds the dead-letter record for a {@link DeadLetter}: the failed record's key, value and headers, plus context
 * headers in Kafka Connect's or Kafka Streams' names and ours (see {@link DeadLetterHeaders}).
 *
 * <p>A dead letter must itself be writable, so the record is kept within {@code maxBytes} (as the producer measures
 * a record): when too large, the stack trace is shortened first, then the original headers are left out, then the
 * stack trace is dropped and the message shortened, then the context values (connector, task, application id...) are
 * cut to {@value #CONTEXT_CUT_CHARS} characters, and the value and the key take what room is left;
 * {@link DeadLetterHeaders#PAYLOAD_TRUNCATED} says what was cut ({@code key}, {@code value}, {@code headers},
 * {@code context}) and {@link DeadLetterHeaders#ORIGINAL_SIZE} the failed record's size. A dead letter is never
 * dropped: one that does not fit even so fails with a {@link RecordTooLargeException} naming the record.
 *
 * <p>The dead letter keeps the failed record's timestamp ({@link DeadLetter#timestamp(Long)}), as Kafka Connect's
 * {@code DeadLetterQueueReporter} and Kafka Streams' dead-letter records do; without one, or when that timestamp is
 * what the topic rejected (InvalidTimestampException), the producer stamps it. The
 * exception's message header is always written, with a null value for an exception without a message, as both of
 * them write it.
 *
 * <p>The limit of one dead letter is the smallest of the builder's {@code maxBytes} and what the producer that sends
 * it accepts for the dead-letter topic: pass {@link TxnSendProducer#maxRecordBytes(String)} to
 * {@link #build(DeadLetter, int)}, so that lowered producer limits and a small topic {@code max.message.bytes} never
 * make a dead letter unwritable.
 */
public final class DeadLetterRecordBuilder {

    /** Which tool's header names carry the source location and the exception. */
    public enum HeaderStyle { CONNECT, STREAMS }

    /** The smallest {@code maxBytes} accepted: room for the context headers. */
    public static final int MIN_MAX_BYTES = 1024;

    private static final int STACKTRACE_MAX_CHARS = 8 * 1024;
    private static final int MESSAGE_MAX_CHARS = 1024;
    private static final int SLACK = 16;
    /** The longest context value kept when the context headers must be cut to fit. */
    static final int CONTEXT_CUT_CHARS = 64;
    /** The longest {@link DeadLetterHeaders#PAYLOAD_TRUNCATED} value: room for it is kept while fitting. */
    private static final String LONGEST_CUT = "key,value,headers,context";

    private final String topic;
    private final HeaderStyle style;
    private final int maxBytes;

    /**
     * @param topic    the dead-letter topic
     * @param style    CONNECT or STREAMS header names
     * @param maxBytes the largest dead-letter record to build, at least {@value #MIN_MAX_BYTES}; keep it at or
     *                 below the producer's {@code max.request.size} and the dead-letter topic's
     *                 {@code max.message.bytes}
     */
    public DeadLetterRecordBuilder(String topic, HeaderStyle style, int maxBytes) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.style = Objects.requireNonNull(style, "style");
        if (maxBytes < MIN_MAX_BYTES) {
            throw new IllegalArgumentException("maxBytes is " + maxBytes + ", must be at least " + MIN_MAX_BYTES);
        }
        this.maxBytes = maxBytes;
    }

    public String topic() {
        return topic;
    }

    /** Builds the dead letter within this builder's {@code maxBytes}. */
    public ProducerRecord<byte[], byte[]> build(DeadLetter letter) {
        return fit(letter, maxBytes);
    }

    /**
     * Builds the dead letter within the smaller of this builder's {@code maxBytes} and {@code acceptedBytes}, the
     * largest record the sending producer accepts for the dead-letter topic
     * ({@link TxnSendProducer#maxRecordBytes(String)}).
     *
     * @throws RecordTooLargeException when {@code acceptedBytes} is below {@value #MIN_MAX_BYTES}: no dead letter
     *                                 fits, and the message names the dead-letter topic
     */
    public ProducerRecord<byte[], byte[]> build(DeadLetter letter, int acceptedBytes) {
        if (acceptedBytes < MIN_MAX_BYTES) {
            throw new RecordTooLargeException("No dead letter fits in dead-letter topic " + topic + ": its producer"
                    + " and topic accept records of up to " + acceptedBytes + " bytes, a dead letter needs at least "
                    + MIN_MAX_BYTES + " (raise the topic's " + TopicConfig.MAX_MESSAGE_BYTES_CONFIG + " or the"
                    + " producer's " + ProducerConfig.MAX_REQUEST_SIZE_CONFIG + ")");
        }
        return fit(letter, Math.min(maxBytes, acceptedBytes));
    }

    private ProducerRecord<byte[], byte[]> fit(DeadLetter letter, int maxBytes) {
        Throwable error = SendErrors.unwrap(letter.error());
        Parts parts = new Parts(letter, error, maxBytes);
        if (parts.room() < 0 && !parts.stacktrace.isEmpty()) {
            parts.stacktrace = clip(parts.stacktrace, Math.max(0, parts.stacktrace.length() + parts.room()));
        }
        if (parts.room() < 0 && parts.original.length > 0) {
            parts.original = new Header[0];
            parts.cut.add("headers");
        }
        if (parts.room() < 0) {
            parts.stacktrace = "";
            parts.message = parts.message == null ? null : clip(parts.message, 64);
        }
        if (parts.room() < 0) {
            Map<String, String> whole = new LinkedHashMap<>(parts.context);
            parts.context.replaceAll((name, value) -> clip(value, CONTEXT_CUT_CHARS));
            if (!parts.context.equals(whole)) {
                parts.cut.add(DeadLetterHeaders.CONTEXT_CUT);
            }
        }
        int room = parts.room();
        if (room < 0) {
            throw new RecordTooLargeException("The dead letter of " + letter.describe() + " does not fit dead-letter"
                    + " topic " + topic + " even without its key, value and headers: its context headers need more"
                    + " than the " + maxBytes + " bytes its producer and topic accept (raise the topic's "
                    + TopicConfig.MAX_MESSAGE_BYTES_CONFIG + " or the producer's "
                    + ProducerConfig.MAX_REQUEST_SIZE_CONFIG + ")");
        }
        return parts.record(letter, room);
    }

    /** The parts of a dead letter being fitted, and the room they leave for the key and value. */
    private final class Parts {
        private final DeadLetter letter;
        private final Throwable error;
        private final int maxBytes;
        private final int originalSize;
        private final List<String> cut = new ArrayList<>();
        private final Map<String, String> context;
        private Header[] original;
        private String message;
        private String stacktrace;

        Parts(DeadLetter letter, Throwable error, int maxBytes) {
            this.letter = letter;
            this.error = error;
            this.maxBytes = maxBytes;
            this.originalSize = RecordSizes.producerEstimate(letter.key(), letter.value(), letter.headers());
            this.context = new LinkedHashMap<>(letter.context());
            this.original = withSourceRaw(withoutOurs(letter.headers()), letter);
            this.message = error.getMessage() == null ? null : clip(error.getMessage(), MESSAGE_MAX_CHARS);
            this.stacktrace = clip(stacktrace(error), STACKTRACE_MAX_CHARS);
        }

        /** Bytes left for the key and value (negative: the rest alone is too large). */
        int room() {
            return maxBytes - sizeWith(original, headers(LONGEST_CUT)) - SLACK;
        }

        List<Header> headers(String truncated) {
            return contextHeaders(letter, context, error, originalSize, message, stacktrace, truncated);
        }

        ProducerRecord<byte[], byte[]> record(DeadLetter letter, int room) {
            byte[] key = letter.key();
            byte[] value = letter.value();
            int keyLength = key == null ? 0 : key.length;
            int valueLength = value == null ? 0 : value.length;
            if (keyLength + valueLength > room) {
                int valueRoom = Math.max(0, room - Math.min(keyLength, room / 2));
                if (valueLength > valueRoom) {
                    value = Arrays.copyOf(value, valueRoom);
                    cut.add(0, "value");
                }
                int keyRoom = Math.max(0, room - (value == null ? 0 : value.length));
                if (keyLength > keyRoom) {
                    key = Arrays.copyOf(key, keyRoom);
                    cut.add(0, "key");
                }
            }
            RecordHeaders all = new RecordHeaders(original);
            headers(cut.isEmpty() ? "false" : String.join(",", cut)).forEach(all::add);
            return new ProducerRecord<>(topic, null, timestamp(letter, error), key, value, all);
        }
    }

    private List<Header> contextHeaders(DeadLetter letter, Map<String, String> context, Throwable error,
                                        int originalSize, String message, String stacktrace, String truncated) {
        boolean connect = style == HeaderStyle.CONNECT;
        List<Header> headers = new ArrayList<>();
        if (letter.sourceTopic() != null) {
            add(headers, connect ? DeadLetterHeaders.CONNECT_TOPIC : DeadLetterHeaders.STREAMS_TOPIC,
                    letter.sourceTopic());
            add(headers, connect ? DeadLetterHeaders.CONNECT_PARTITION : DeadLetterHeaders.STREAMS_PARTITION,
                    String.valueOf(letter.sourcePartition()));
            add(headers, connect ? DeadLetterHeaders.CONNECT_OFFSET : DeadLetterHeaders.STREAMS_OFFSET,
                    String.valueOf(letter.sourceOffset()));
        }
        context.forEach((name, value) -> add(headers, name, value));
        add(headers, connect ? DeadLetterHeaders.CONNECT_EXCEPTION : DeadLetterHeaders.STREAMS_EXCEPTION,
                error.getClass().getName());
        add(headers, connect ? DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE
                : DeadLetterHeaders.STREAMS_EXCEPTION_MESSAGE, message);
        if (!stacktrace.isEmpty()) {
            add(headers, connect ? DeadLetterHeaders.CONNECT_EXCEPTION_STACKTRACE
                    : DeadLetterHeaders.STREAMS_EXCEPTION_STACKTRACE, stacktrace);
        }
        add(headers, DeadLetterHeaders.ERROR_CATEGORY, SendErrors.classify(error).name());
        if (letter.targetTopic() != null) {
            add(headers, DeadLetterHeaders.TARGET_TOPIC, letter.targetTopic());
        }
        if (letter.targetPartition() != null) {
            add(headers, DeadLetterHeaders.TARGET_PARTITION, String.valueOf(letter.targetPartition()));
        }
        add(headers, DeadLetterHeaders.ORIGINAL_SIZE, String.valueOf(originalSize));
        add(headers, DeadLetterHeaders.PAYLOAD_TRUNCATED, truncated);
        return headers;
    }

    /**
     * The failed record's timestamp, unless that timestamp is why it failed (InvalidTimestampException: outside the
     * topic's {@code message.timestamp.before/after.max.ms}): a dead-letter topic under the same limits (a broker-wide
     * {@code log.message.timestamp.*}) would reject the dead letter too, so the producer stamps it instead.
     */
    private static Long timestamp(DeadLetter letter, Throwable error) {
        return error instanceof InvalidTimestampException ? null : letter.timestamp();
    }

    /**
     * The failed record's headers without the {@code __quarantine.*} ones this builder writes itself (the error
     * category, target, sizes, truncation and every context header such as the application id): a failed record may
     * carry any headers (its producer's choice, or an earlier dead letter's), and a reader takes the last header of a
     * name, so a copied one would stand for ours wherever ours is absent (a target partition left to the partitioner).
     * Kept: {@link DeadLetterHeaders#REPLAY_COUNT} (the replay's loop guard travels in the failed record's headers).
     * A record's own {@link DeadLetterHeaders#SOURCE_RAW_KEY}/{@link DeadLetterHeaders#SOURCE_RAW_VALUE} are dropped too:
     * only {@link DeadLetter#sourceRaw} sets them ({@link #withSourceRaw}), since a replay to {@code source} writes them
     * instead of the dead letter's key and value.
     */
    static Header[] withoutOurs(Header[] headers) {
        List<Header> kept = new ArrayList<>(headers.length);
        for (Header header : headers) {
            if (!DeadLetterHeaders.writtenByTheBuilder(header.key())) {
                kept.add(header);
            }
        }
        return kept.size() == headers.length ? headers : kept.toArray(new Header[0]);
    }

    /**
     * {@code headers} with the input's raw key and value of {@link DeadLetter#sourceRaw} appended, where set: part of
     * the record's headers section, so they are cut with it when the dead letter must shrink.
     */
    private static Header[] withSourceRaw(Header[] headers, DeadLetter letter) {
        if (letter.sourceRawKey() == null && letter.sourceRawValue() == null) {
            return headers;
        }
        List<Header> all = new ArrayList<>(List.of(headers));
        if (letter.sourceRawKey() != null) {
            all.add(new RecordHeader(DeadLetterHeaders.SOURCE_RAW_KEY, letter.sourceRawKey()));
        }
        if (letter.sourceRawValue() != null) {
            all.add(new RecordHeader(DeadLetterHeaders.SOURCE_RAW_VALUE, letter.sourceRawValue()));
        }
        return all.toArray(new Header[0]);
    }

    private static int sizeWith(Header[] original, List<Header> context) {
        Header[] all = new Header[original.length + context.size()];
        System.arraycopy(original, 0, all, 0, original.length);
        for (int i = 0; i < context.size(); i++) {
            all[original.length + i] = context.get(i);
        }
        return RecordSizes.producerEstimate(null, null, all);
    }

    /** A header with {@code value} in UTF-8; a null value is a header with a null value (an exception's message). */
    private static void add(List<Header> headers, String name, String value) {
        headers.add(new RecordHeader(name, value == null ? null : value.getBytes(StandardCharsets.UTF_8)));
    }

    private static String stacktrace(Throwable error) {
        StringWriter text = new StringWriter();
        error.printStackTrace(new PrintWriter(text));
        return text.toString();
    }

    private static String clip(String text, int maxChars) {
        return text.length() <= maxChars ? text : text.substring(0, maxChars);
    }
}
