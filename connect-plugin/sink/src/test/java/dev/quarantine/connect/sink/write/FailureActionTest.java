package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

/** The table of {@link FailureAction}, row by row. */
class FailureActionTest {

    private static final String ERROR_STATE = "Cannot execute transactional method because we are in an error state";

    @Test
    void fencingAnywhereInTheChainReestablishes() {
        assertThat(FailureAction.of(new ProducerFencedException("x"))).isEqualTo(FailureAction.FENCED);
        assertThat(FailureAction.of(new KafkaException(ERROR_STATE, new InvalidProducerEpochException("x"))))
                .isEqualTo(FailureAction.FENCED);
        assertThat(FailureAction.of(new org.apache.kafka.common.errors.InvalidTxnStateException("ended")))
                .as("the coordinator ended the transaction after a fence").isEqualTo(FailureAction.FENCED);
        assertThat(FailureAction.of(new KafkaException(ERROR_STATE, new InvalidPidMappingException("x"))))
                .as("the transactional id expired or was taken over: re-establish, not fail the task")
                .isEqualTo(FailureAction.FENCED);
    }

    @Test
    void aRecordErrorIsPoisonAlsoInsideTheErrorState() {
        assertThat(FailureAction.of(new RecordTooLargeException("x"))).isEqualTo(FailureAction.POISON);
        assertThat(FailureAction.of(new KafkaException(ERROR_STATE, new InvalidRecordException("x"))))
                .isEqualTo(FailureAction.POISON);
    }

    @Test
    void transientAndAbortableErrorsAreRetried() {
        assertThat(FailureAction.of(new TimeoutException("x"))).isEqualTo(FailureAction.RETRY);
        assertThat(FailureAction.of(new NotEnoughReplicasException("x"))).isEqualTo(FailureAction.RETRY);
        assertThat(FailureAction.of(new TransactionAbortableException("x"))).isEqualTo(FailureAction.RETRY);
    }

    @Test
    void aBareKafkaExceptionIsCollateralAndRetried() {
        assertThat(FailureAction.of(new KafkaException("Failed to append record because it was part of a batch which"
                + " had one more more invalid records"))).isEqualTo(FailureAction.RETRY);
    }

    @Test
    void authorizationAndUnsupportedVersionAreFatalAlsoInsideTheErrorState() {
        assertThat(FailureAction.of(new TopicAuthorizationException("x"))).isEqualTo(FailureAction.FATAL);
        assertThat(FailureAction.of(new KafkaException(ERROR_STATE, new TopicAuthorizationException("x"))))
                .isEqualTo(FailureAction.FATAL);
        assertThat(FailureAction.of(new UnsupportedVersionException("x"))).isEqualTo(FailureAction.FATAL);
    }
}
