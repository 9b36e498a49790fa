package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class DeadLetterBreakerTest {

    private static final String TOO_LARGE = "RecordTooLargeException";
    private static final String UNKNOWN = "UnknownTopicOrPartitionException";

    @Test
    void tripsOnlyWhenMoreThanTheRatioOfTheWindowWouldBeDeadLettered() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(10, 0.3);

        assertThat(breaker.deadLettered(TOO_LARGE)).isEmpty();
        assertThat(breaker.deadLettered(TOO_LARGE)).isEmpty();
        assertThat(breaker.deadLettered(UNKNOWN)).isEmpty();
        Optional<DeadLetterBreaker.Trip> trip = breaker.deadLettered(UNKNOWN);

        assertThat(trip).hasValueSatisfying(t -> {
            assertThat(t.deadLetters()).isEqualTo(4);
            assertThat(t.byErrorClass()).isEqualTo(Map.of(TOO_LARGE, 2, UNKNOWN, 2));
            assertThat(t.describe("outputs")).isEqualTo("4 of the last 10 outputs would be dead-lettered"
                    + " (RecordTooLargeException: 2, UnknownTopicOrPartitionException: 2)");
        });
    }

    @Test
    void namesTheErrorClassMostDeadLettersFailedWith() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(10, 0.5);
        breaker.deadLettered(TOO_LARGE);
        for (int i = 0; i < 4; i++) {
            breaker.deadLettered(UNKNOWN);
        }

        assertThat(breaker.deadLettered(UNKNOWN)).hasValueSatisfying(
                t -> assertThat(t.mostCommon()).isEqualTo(Map.entry(UNKNOWN, 5)));
    }

    @Test
    void countsRecordsNotYetSeenAsWrittenSoAFewPoisonRecordsAtTheStartDoNotTripIt() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(10, 0.5);

        for (int i = 0; i < 5; i++) {
            assertThat(breaker.deadLettered(UNKNOWN)).as("dead letter %d of the first records", i).isEmpty();
        }
        assertThat(breaker.deadLettered(UNKNOWN)).isPresent();
    }

    @Test
    void forgetsDeadLettersThatSlidOutOfTheWindow() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(4, 0.5);
        breaker.deadLettered(TOO_LARGE);
        breaker.deadLettered(TOO_LARGE);
        for (int i = 0; i < 4; i++) {
            breaker.written();
        }

        assertThat(breaker.deadLettered("InvalidRecordException")).isEmpty();
        assertThat(breaker.deadLettered("InvalidRecordException")).isEmpty();
        assertThat(breaker.deadLettered("InvalidRecordException")).hasValueSatisfying(
                t -> assertThat(t.describe("records")).isEqualTo("3 of the last 4 records would be dead-lettered"
                        + " (InvalidRecordException: 3)"));
    }

    @Test
    void neverTripsWithARatioOfOne() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(5, 1.0);

        for (int i = 0; i < 20; i++) {
            assertThat(breaker.deadLettered(TOO_LARGE)).as("dead letter %d", i).isEmpty();
        }
    }
}
