package dev.quarantine.txn;

import java.util.Arrays;

import org.apache.kafka.common.header.Headers;

/**
 * Header names of dead-letter records. Tools already read Kafka Connect's {@code __connect.errors.*} and Kafka
 * Streams' {@code __streams.errors.*} names, so those are used on their paths; ours start with
 * {@code __quarantine.}. All values are UTF-8 strings, but for the exception message's, which is null for an exception
 * without a message (as Kafka Connect and Kafka Streams write it).
 */
public final class DeadLetterHeaders {

    // Kafka Connect's names (DeadLetterQueueReporter)
    public static final String CONNECT_TOPIC = "__connect.errors.topic";
    public static final String CONNECT_PARTITION = "__connect.errors.partition";
    public static final String CONNECT_OFFSET = "__connect.errors.offset";
    public static final String CONNECT_CONNECTOR_NAME = "__connect.errors.connector.name";
    public static final String CONNECT_TASK_ID = "__connect.errors.task.id";
    public static final String CONNECT_STAGE = "__connect.errors.stage";
    public static final String CONNECT_EXECUTING_CLASS = "__connect.errors.class.name";
    public static final String CONNECT_EXCEPTION = "__connect.errors.exception.class.name";
    public static final String CONNECT_EXCEPTION_MESSAGE = "__connect.errors.exception.message";
    public static final String CONNECT_EXCEPTION_STACKTRACE = "__connect.errors.exception.stacktrace";

    // Kafka Streams' names (KIP-1034)
    public static final String STREAMS_EXCEPTION = "__streams.errors.exception";
    public static final String STREAMS_EXCEPTION_MESSAGE = "__streams.errors.message";
    public static final String STREAMS_EXCEPTION_STACKTRACE = "__streams.errors.stacktrace";
    public static final String STREAMS_TOPIC = "__streams.errors.topic";
    public static final String STREAMS_PARTITION = "__streams.errors.partition";
    public static final String STREAMS_OFFSET = "__streams.errors.offset";

    // ours
    /** The prefix of every header name of ours. */
    public static final String QUARANTINE_PREFIX = "__quarantine.";
    /** {@link SendErrorCategory} of the failure; its presence marks a record as a dead letter. */
    public static final String ERROR_CATEGORY = "__quarantine.error.category";
    /** The topic the failed record was sent to. */
    public static final String TARGET_TOPIC = "__quarantine.target.topic";
    /** The partition the failed record was sent to, when it named one. */
    public static final String TARGET_PARTITION = "__quarantine.target.partition";
    /** Serialized size of the failed record (key, value and headers, as the producer measures it). */
    public static final String ORIGINAL_SIZE = "__quarantine.original.size";
    /**
     * {@code false}, or the parts cut to fit the dead-letter size limit: {@code key}, {@code value}, {@code headers}
     * (the failed record's own), {@code context} (the context values, such as the connector name, shortened).
     */
    public static final String PAYLOAD_TRUNCATED = "__quarantine.payload.truncated";
    /** The {@link #PAYLOAD_TRUNCATED} part that says only context values were shortened, not the record's own. */
    static final String CONTEXT_CUT = "context";

    /**
     * How the key of a dead letter was encoded when the target converters failed on it (Connect only):
     * {@code bytes} (as delivered), {@code string} (a String, UTF-8) or {@code connect-values} (Connect's
     * {@code Values.convertToString}, UTF-8). Absent when the converters succeeded (the key is the target bytes).
     */
    public static final String KEY_ENCODING = "__quarantine.key.encoding";
    /** Like {@link #KEY_ENCODING}, for the value. */
    public static final String VALUE_ENCODING = "__quarantine.value.encoding";

    /** The Kafka Streams {@code application.id} that dead-lettered the record (Streams only). */
    public static final String APPLICATION_ID = "__quarantine.application.id";
    /**
     * Whose key and value a Kafka Streams dead letter carries: {@code output} (the failing output's), {@code input}
     * (the input record's raw bytes: the output could not be serialized) or {@code none} (key and value are null).
     */
    public static final String PAYLOAD_ORIGIN = "__quarantine.payload.origin";
    /** The input record's raw key, when Kafka Streams provides it with a production error ({@link DeadLetter#sourceRaw}). */
    public static final String SOURCE_RAW_KEY = "__quarantine.source.raw.key";
    /** The input record's raw value, when Kafka Streams provides it with a production error. */
    public static final String SOURCE_RAW_VALUE = "__quarantine.source.raw.value";
    /**
     * How many times the record was replayed from a dead-letter topic; set by the replay on the record it writes
     * back, so it travels in the original headers of a dead letter that fails again.
     */
    public static final String REPLAY_COUNT = "__quarantine.replay.count";

    private DeadLetterHeaders() {
    }

    /**
     * Whether a header of that name is one of ours that {@link DeadLetterRecordBuilder} writes itself (from its own
     * fields, {@link DeadLetter#sourceRaw} or the letter's context), so a failed record's copy of it is dropped: every
     * {@code __quarantine.*} name but {@link #REPLAY_COUNT}.
     */
    static boolean writtenByTheBuilder(String name) {
        return name != null && name.startsWith(QUARANTINE_PREFIX) && !name.equals(REPLAY_COUNT);
    }

    /** Whether a record with these headers is a dead letter built by {@link DeadLetterRecordBuilder}. */
    public static boolean isDeadLetter(Headers headers) {
        return headers != null && headers.lastHeader(ERROR_CATEGORY) != null;
    }

    /**
     * Whether a {@link #PAYLOAD_TRUNCATED} value says the failed record's own key, value or headers were cut, so that
     * sending the dead letter back would write a record other than the one that failed: {@code false} and
     * {@code context} alone (shortened context values) do not; anything else, unknown parts included, does.
     */
    public static boolean recordCut(String truncated) {
        return Arrays.stream(truncated.split(",")).map(String::trim)
                .anyMatch(part -> !part.equals("false") && !part.equals(CONTEXT_CUT));
    }
}
