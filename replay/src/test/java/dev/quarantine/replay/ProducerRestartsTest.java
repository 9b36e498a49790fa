package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.ProducerRestarts.Decision;

/** One test per row of {@link ProducerRestarts}' table. */
class ProducerRestartsTest {

    @Test
    void aProducerFencedExceptionIsATakeoverWhetherOrNotThisProducerCommitted() {
        ProducerRestarts restarts = new ProducerRestarts(3);

        assertThat(restarts.after(new ProducerFencedException("newer epoch"), false)).isEqualTo(Decision.TAKEN_OVER);
        assertThat(restarts.after(new KafkaException(new ProducerFencedException("x")), true))
                .isEqualTo(Decision.TAKEN_OVER);
    }

    @Test
    void anInvalidTxnStateBeforeTheFirstCommitRestartsTheProducerUpToTheLimit() {
        ProducerRestarts restarts = new ProducerRestarts(2);

        assertThat(restarts.after(new InvalidTxnStateException("ending"), false)).isEqualTo(Decision.RESTART);
        assertThat(restarts.after(new KafkaException(new InvalidProducerEpochException("bumped")), false))
                .isEqualTo(Decision.RESTART);
        assertThat(restarts.after(new InvalidTxnStateException("ending"), false)).isEqualTo(Decision.GIVE_UP);
    }

    @Test
    void anInvalidTxnStateAfterThisProducerCommittedIsATakeover() {
        assertThat(new ProducerRestarts(3).after(new InvalidProducerEpochException("old"), true))
                .isEqualTo(Decision.TAKEN_OVER);
    }

    @Test
    void anyOtherErrorIsLeftToTheCaller() {
        assertThat(new ProducerRestarts(3).after(new TimeoutException("slow"), false)).isEqualTo(Decision.OTHER);
    }
}
