package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler.ProcessingHandlerResponse;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/**
 * Which failures of the aggregation's processor skip the record and which fail the stream thread, row by row; the real
 * producer's failure after a {@code commitTransaction} that timed out is {@code RecordFaultsOnlyIT}'s, the processor's
 * marking of its own failures {@code DeadLetterProcessorFaultsTest}'s.
 */
class RecordFaultsOnlyTest {

    private static final String AT = "orders-dlq-0@7";

    @Test
    void whatOurProcessorMarkedIsTheRecordsHoweverWrapped() {
        assertThat(RecordFaultsOnly.causedByRecord(new RecordFault(AT, new NullPointerException()))).isTrue();
        assertThat(RecordFaultsOnly.causedByRecord(new StreamsException(new RecordFault(AT,
                new IllegalArgumentException("bad header"))))).isTrue();
    }

    @Test
    void bytesThatDoNotDecodeAreDataNotKafkaEvenWhenKafkasTypeSaysSo() {
        // Codec's refusal of a store value it cannot read: failing would replace the thread on it for ever
        assertThat(RecordFaultsOnly.causedByRecord(new SerializationException("not a stats value"))).isTrue();
        assertThat(RecordFaultsOnly.causedByRecord(new StreamsException(new SerializationException("wrapped"))))
                .isTrue();
    }

    @Test
    void anythingUnmarkedFailsTheThreadWhereverItWasThrown() {
        // the producer's own failure after a commit that timed out: a JDK type, thrown from Kafka's clients
        assertThat(RecordFaultsOnly.causedByRecord(thrownFrom(new IllegalStateException("must be retried"),
                "org.apache.kafka.clients.producer.internals.TransactionManager"))).isFalse();
        // the same through a JDK helper, or with no stack trace at all (the JIT's fast throw): still not a record's
        assertThat(RecordFaultsOnly.causedByRecord(thrownFrom(new IllegalStateException("closed"),
                "java.util.Objects"))).isFalse();
        IllegalStateException noTrace = new IllegalStateException();
        noTrace.setStackTrace(new StackTraceElement[0]);
        assertThat(RecordFaultsOnly.causedByRecord(noTrace)).isFalse();
        assertThat(RecordFaultsOnly.causedByRecord(new TimeoutException("EndTxn"))).isFalse();
        assertThat(RecordFaultsOnly.causedByRecord(new RuntimeException(new StreamsException("store")))).isFalse();
    }

    @Test
    void aCycleOfCausesEndsTheWalk() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(RecordFaultsOnly.causedByRecord(a)).isFalse();
    }

    @Test
    @SuppressWarnings("deprecation") // handle, the method older Kafka Streams call (handleError delegates to it)
    void theHandlerFailsTheThreadOnAnythingUnmarkedAndSkipsARecordsOwn() {
        RecordFaultsOnly handler = new RecordFaultsOnly();
        assertThat(handler.handle(at("orders-dlq", 0, 7), null,
                thrownFrom(new IllegalStateException("must be retried"),
                        "org.apache.kafka.clients.producer.internals.TransactionManager")))
                .isEqualTo(ProcessingHandlerResponse.FAIL);
        assertThat(handler.handle(at("orders-dlq", 0, 8), null, new RecordFault("orders-dlq-0@8",
                new NullPointerException()))).isEqualTo(ProcessingHandlerResponse.CONTINUE);
    }

    static ErrorHandlerContext at(String topic, int partition, long offset) {
        return new ErrorHandlerContext() {
            @Override public String topic() { return topic; }
            @Override public int partition() { return partition; }
            @Override public long offset() { return offset; }
            @Override public Headers headers() { return new RecordHeaders(); }
            @Override public String processorNodeId() { return "dead-letter-aggregation"; }
            @Override public TaskId taskId() { return new TaskId(0, partition); }
            @Override public long timestamp() { return 0; }
            @Override public byte[] sourceRawKey() { return null; }
            @Override public byte[] sourceRawValue() { return null; }
        };
    }

    private static <T extends Throwable> T thrownFrom(T error, String className) {
        error.setStackTrace(new StackTraceElement[] {new StackTraceElement(className, "m", "F.java", 1)});
        return error;
    }
}
