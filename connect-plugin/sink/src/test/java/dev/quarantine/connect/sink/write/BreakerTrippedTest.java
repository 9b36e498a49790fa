package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.quarantine.txn.DeadLetterBreaker;

class BreakerTrippedTest {

    private static final String UNKNOWN = "org.apache.kafka.common.errors.UnknownTopicOrPartitionException";
    private static final String TOO_LARGE = "org.apache.kafka.common.errors.RecordTooLargeException";

    @Test
    void saysHowManyRecordsWereDeadLetteredWhatMostFailedWithAndTheSettingToChange() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(10, 0.5);
        breaker.deadLettered(TOO_LARGE);
        for (int i = 0; i < 4; i++) {
            breaker.written();
            breaker.deadLettered(UNKNOWN);
        }

        DeadLetterBreaker.Trip trip = breaker.deadLettered(UNKNOWN).orElseThrow();

        assertThat(new WriterErrors.BreakerTripped(trip)).hasMessageContaining("6 of the last 10 records")
                .hasMessageContaining("dlq.max.ratio=0.5")
                .hasMessageContaining("most of them (5) failed with " + UNKNOWN);
    }
}
