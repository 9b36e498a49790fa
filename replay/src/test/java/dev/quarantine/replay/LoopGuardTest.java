package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.quarantine.replay.LoopGuard.Decision;

/** The rows of {@link LoopGuard}'s table. */
class LoopGuardTest {

    @Test
    void deadLettersAgainWhileAttemptsRemain() {
        assertThat(new LoopGuard(3).decide(1)).isEqualTo(Decision.DEAD_LETTER_AGAIN);
        assertThat(new LoopGuard(3).decide(2)).isEqualTo(Decision.DEAD_LETTER_AGAIN);
    }

    @Test
    void parksAtTheLastAttemptAndBeyond() {
        assertThat(new LoopGuard(3).decide(3)).isEqualTo(Decision.PARK);
        assertThat(new LoopGuard(3).decide(9)).isEqualTo(Decision.PARK);
    }

    @Test
    void parksTheFirstFailureWhenOneAttemptIsAllowed() {
        assertThat(new LoopGuard(1).decide(1)).isEqualTo(Decision.PARK);
    }

    @Test
    void refusesFewerThanOneAttempt() {
        assertThatThrownBy(() -> new LoopGuard(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }
}
