package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class SendErrorsTest {

    @Test
    void recordProblemsAreRecordErrors() {
        assertThat(new Exception[] {new RecordTooLargeException("x"), new SerializationException("x"),
                new InvalidTopicException("x"), new UnknownTopicOrPartitionException("x"),
                new InvalidRecordException("x"), new InvalidTimestampException("x")})
                .allSatisfy(e -> assertThat(SendErrors.classify(e)).isEqualTo(SendErrorCategory.RECORD));
    }

    @Test
    void fencingAuthorizationAndMisuseAreFatal() {
        assertThat(new Exception[] {new ProducerFencedException("x"), new InvalidPidMappingException("x"),
                new TopicAuthorizationException("x"),
                new IllegalStateException("x"), new KafkaException("unknown")})
                .allSatisfy(e -> assertThat(SendErrors.classify(e)).isEqualTo(SendErrorCategory.FATAL));
    }

    @Test
    void transientProblemsAreRetriableAndAbortedTransactionsAbortable() {
        assertThat(SendErrors.classify(new TimeoutException("x"))).isEqualTo(SendErrorCategory.RETRIABLE);
        assertThat(SendErrors.classify(new NotEnoughReplicasException("x"))).isEqualTo(SendErrorCategory.RETRIABLE);
        assertThat(SendErrors.classify(new TransactionAbortableException("x")))
                .isEqualTo(SendErrorCategory.ABORTABLE);
    }

    @Test
    void fencingIsFoundAnywhereInTheCauseChain() {
        assertThat(SendErrors.isFencing(new KafkaException("error state",
                new org.apache.kafka.common.errors.InvalidProducerEpochException("x")))).isTrue();
        assertThat(SendErrors.isFencing(new ProducerFencedException("x"))).isTrue();
        assertThat(SendErrors.isFencing(new KafkaException("error state",
                new org.apache.kafka.common.errors.InvalidTxnStateException("ended by the coordinator")))).isTrue();
        assertThat(SendErrors.isFencing(new KafkaException("x", new TimeoutException("x")))).isFalse();
    }

    @Test
    void anExpiredOrTakenOverTransactionalIdIsFencingAsKafkaStreamsTreatsIt() {
        assertThat(SendErrors.isFencing(new InvalidPidMappingException("unknown producer id"))).isTrue();
        assertThat(SendErrors.isFencing(new KafkaException("error state",
                new InvalidPidMappingException("unknown producer id")))).isTrue();
    }

    @Test
    void aFailureWrappingATimeoutIsTransientOneWrappingARecordErrorIsNot() {
        assertThat(SendErrors.isTransient(new RuntimeException("schema registry",
                new org.apache.kafka.common.errors.NetworkException("x")))).isTrue();
        assertThat(SendErrors.isTransient(new TimeoutException("x"))).isTrue();
        assertThat(SendErrors.isTransient(new RuntimeException("bad data", new SerializationException("x"))))
                .isFalse();
        assertThat(SendErrors.isTransient(new IllegalArgumentException("x"))).isFalse();
    }

    @Test
    void looksThroughExecutionExceptions() {
        assertThat(SendErrors.classify(new ExecutionException(new RecordTooLargeException("x"))))
                .isEqualTo(SendErrorCategory.RECORD);
    }

    @Test
    void aDeadLetterThatCannotBeWrittenIsFatalNotAnotherDeadLetter() {
        ProducerRecord<byte[], byte[]> deadLetter = new DeadLetterRecordBuilder("dlq",
                DeadLetterRecordBuilder.HeaderStyle.CONNECT, 10_000)
                .build(DeadLetter.of(null, new byte[10], null, new RecordTooLargeException("x")));
        ProducerRecord<byte[], byte[]> plain = new ProducerRecord<>("t", null, null, null, null, new RecordHeaders());

        assertThat(SendErrors.classify(deadLetter, new RecordTooLargeException("x"))).isEqualTo(SendErrorCategory.FATAL);
        assertThat(SendErrors.classify(plain, new RecordTooLargeException("x"))).isEqualTo(SendErrorCategory.RECORD);
    }
}
