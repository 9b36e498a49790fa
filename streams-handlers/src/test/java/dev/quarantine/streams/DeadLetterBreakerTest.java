package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class DeadLetterBreakerTest {

    @Test
    void tripsOnlyWhenMoreThanTheRatioOfTheWindowWouldBeDeadLettered() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(10, 0.3);

        assertThat(breaker.deadLettered("RecordTooLargeException")).isEmpty();
        assertThat(breaker.deadLettered("RecordTooLargeException")).isEmpty();
        assertThat(breaker.deadLettered("UnknownTopicOrPartitionException")).isEmpty();

        assertThat(breaker.deadLettered("UnknownTopicOrPartitionException")).hasValue("4 of the last 10 outputs"
                + " would be dead-lettered (RecordTooLargeException: 2, UnknownTopicOrPartitionException: 2), more"
                + " than 0.3 of them");
    }

    @Test
    void forgetsDeadLettersThatSlidOutOfTheWindow() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(4, 0.5);
        breaker.deadLettered("RecordTooLargeException");
        breaker.deadLettered("RecordTooLargeException");
        for (int i = 0; i < 4; i++) {
            breaker.written();
        }

        assertThat(breaker.deadLettered("InvalidRecordException")).isEmpty();
        assertThat(breaker.deadLettered("InvalidRecordException")).isEmpty();
        Optional<String> tripped = breaker.deadLettered("InvalidRecordException");
        assertThat(tripped).hasValue("3 of the last 4 outputs would be dead-lettered (InvalidRecordException: 3),"
                + " more than 0.5 of them");
    }

    @Test
    void neverTripsWithARatioOfOne() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(5, 1.0);

        for (int i = 0; i < 20; i++) {
            assertThat(breaker.deadLettered("RecordTooLargeException")).as("dead letter %d", i).isEmpty();
        }
    }
}
