package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

class DeadLetterBreakerTest {

    private static final String UNKNOWN = "org.apache.kafka.common.errors.UnknownTopicOrPartitionException";
    private static final String TOO_LARGE = "org.apache.kafka.common.errors.RecordTooLargeException";

    @Test
    void tripsWhenMoreThanTheRatioOfAFullWindowWasDeadLetteredNamingTheMostCommonError() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(0.5, 10);
        breaker.admit(outcomes(4, null));
        breaker.admit(outcomes(1, TOO_LARGE));

        assertThatThrownBy(() -> breaker.admit(outcomes(5, UNKNOWN)))
                .isInstanceOf(DeadLetterBreaker.Tripped.class)
                .hasMessageContaining("6 of the last 10 records")
                .hasMessageContaining("dlq.max.ratio=0.5")
                .hasMessageContaining("most of them (5) failed with " + UNKNOWN);
    }

    @Test
    void judgesOnlyAFullWindowSoEarlyPoisonDoesNotTripIt() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(0.5, 10);

        assertThatCode(() -> breaker.admit(outcomes(9, UNKNOWN))).doesNotThrowAnyException();
    }

    @Test
    void forgetsOutcomesThatLeftTheWindow() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(0.5, 10);
        breaker.admit(outcomes(5, UNKNOWN));
        breaker.admit(outcomes(10, null));

        assertThatCode(() -> breaker.admit(outcomes(5, UNKNOWN))).doesNotThrowAnyException();
    }

    @Test
    void aRatioOfOneTurnsItOff() {
        DeadLetterBreaker breaker = new DeadLetterBreaker(1.0, 10);

        assertThatCode(() -> breaker.admit(outcomes(50, UNKNOWN))).doesNotThrowAnyException();
    }

    private static List<String> outcomes(int count, String errorClass) {
        return new ArrayList<>(Collections.nCopies(count, errorClass));
    }
}
