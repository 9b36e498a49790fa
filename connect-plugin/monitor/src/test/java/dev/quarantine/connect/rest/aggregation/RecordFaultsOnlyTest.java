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
 * Which failures of the aggregation's processor skip the record and which fail the task, row by row; the real
 * producer's failure after a {@code commitTransaction} that timed out is {@code RecordFaultsOnlyIT}'s.
 */
class RecordFaultsOnlyTest {

    @Test
    void aKafkaExceptionAnywhereAmongTheCausesIsKafkas() {
        assertThat(RecordFaultsOnly.fromKafka(new TimeoutException("EndTxn"))).isTrue();
        assertThat(RecordFaultsOnly.fromKafka(new RuntimeException(new StreamsException("store")))).isTrue();
    }

    @Test
    void aJdkExceptionThrownFromKafkasClientsOrStreamsIsKafkas() {
        assertThat(RecordFaultsOnly.fromKafka(thrownFrom(new IllegalStateException("must be retried"),
                "org.apache.kafka.clients.producer.internals.TransactionManager"))).isTrue();
        assertThat(RecordFaultsOnly.fromKafka(new RuntimeException(thrownFrom(new IllegalStateException("closed"),
                "org.apache.kafka.streams.state.internals.RocksDBStore")))).isTrue();
    }

    @Test
    void whatOurProcessorThrowsOnARecordIsTheRecords() {
        assertThat(RecordFaultsOnly.fromKafka(thrownFrom(new NullPointerException(),
                "dev.quarantine.connect.rest.aggregation.TopicStats"))).isFalse();
        assertThat(RecordFaultsOnly.fromKafka(thrownFrom(new IllegalArgumentException("bad header"),
                "java.util.Base64$Decoder"))).isFalse();
        // Kafka's common utilities (a header's bytes decoded) are not its clients: a record can cause that
        assertThat(RecordFaultsOnly.fromKafka(thrownFrom(new IllegalArgumentException("bad varint"),
                "org.apache.kafka.common.utils.ByteUtils"))).isFalse();
    }

    @Test
    void bytesThatDoNotDecodeAreDataNotKafkaEvenWhenKafkasTypeSaysSo() {
        // Codec's refusal of a store value it cannot read: failing would replace the thread on it for ever
        assertThat(RecordFaultsOnly.fromKafka(thrownFrom(new SerializationException("not a stats value"),
                "dev.quarantine.connect.rest.aggregation.Codec"))).isFalse();
        assertThat(RecordFaultsOnly.fromKafka(new StreamsException(new SerializationException("wrapped")))).isFalse();
    }

    @Test
    void aCycleOfCausesEndsTheWalk() {
        RuntimeException a = thrownFrom(new RuntimeException("a"), "dev.quarantine.X");
        RuntimeException b = thrownFrom(new RuntimeException("b", a), "dev.quarantine.Y");
        a.initCause(b);
        assertThat(RecordFaultsOnly.fromKafka(a)).isFalse();
    }

    @Test
    @SuppressWarnings("deprecation") // handle, the method older Kafka Streams call (handleError delegates to it)
    void theHandlerFailsTheTaskOnKafkasFailureAndSkipsARecordsOwn() {
        RecordFaultsOnly handler = new RecordFaultsOnly();
        assertThat(handler.handle(at("orders-dlq", 0, 7), null,
                thrownFrom(new IllegalStateException("must be retried"),
                        "org.apache.kafka.clients.producer.internals.TransactionManager")))
                .isEqualTo(ProcessingHandlerResponse.FAIL);
        assertThat(handler.handle(at("orders-dlq", 0, 8), null,
                thrownFrom(new NullPointerException(), "dev.quarantine.connect.rest.aggregation.TopicStats")))
                .isEqualTo(ProcessingHandlerResponse.CONTINUE);
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
