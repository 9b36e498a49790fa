package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class CancelAttemptsTest {

    @Test
    void aCancellationFencedByTheStillStartingTaskIsTriedAgain() {
        CancelAttempts attempts = new CancelAttempts(3);

        assertThat(attempts.after(new ProducerFencedException("fenced"))).isEqualTo(CancelAttempts.Decision.AGAIN);
        assertThat(attempts.after(new KafkaException(new InvalidProducerEpochException("epoch"))))
                .isEqualTo(CancelAttempts.Decision.AGAIN);
    }

    @Test
    void anInvalidTxnStateIsTriedAgainToo() {
        assertThat(new CancelAttempts(2).after(new InvalidTxnStateException("state")))
                .isEqualTo(CancelAttempts.Decision.AGAIN);
    }

    @Test
    void anExpiredOrTakenOverTransactionalIdIsFencingAndTriedAgain() {
        assertThat(new CancelAttempts(2).after(new KafkaException(new InvalidPidMappingException("mapping"))))
                .isEqualTo(CancelAttempts.Decision.AGAIN);
    }

    @Test
    void theLastAttemptGivesUpEvenWhenFenced() {
        CancelAttempts attempts = new CancelAttempts(2);
        attempts.after(new ProducerFencedException("fenced"));

        assertThat(attempts.after(new ProducerFencedException("fenced"))).isEqualTo(CancelAttempts.Decision.GIVE_UP);
        assertThat(attempts.attempts()).isEqualTo(2);
    }

    @Test
    void anyOtherErrorGivesUpAtOnce() {
        CancelAttempts attempts = new CancelAttempts(5);

        assertThat(attempts.after(new TimeoutException("slow"))).isEqualTo(CancelAttempts.Decision.GIVE_UP);
        assertThat(attempts.after(new KafkaException("other"))).isEqualTo(CancelAttempts.Decision.GIVE_UP);
    }
}
