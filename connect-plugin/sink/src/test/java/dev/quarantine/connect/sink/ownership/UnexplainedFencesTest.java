package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.MovableClock;

/**
 * Design 2.5, "Fences the log does not explain" (review finding 5, row 27): the task fails only when unexplained
 * fences keep it from committing for longer than {@code transient.errors.timeout.ms}; one row per line of the class's
 * table.
 */
class UnexplainedFencesTest {

    private static final Duration LIMIT = Duration.ofMinutes(5);

    private final MovableClock clock = new MovableClock();
    private final UnexplainedFences fences = new UnexplainedFences(LIMIT, clock);

    @Test
    void explainedFencesNeverFailTheTaskHoweverMany() {
        for (int i = 0; i < 100; i++) {
            fences.fenced(true);
            clock.advance(Duration.ofMinutes(1));
        }

        assertThat(fences.overLimit()).isEmpty();
    }

    @Test
    void unexplainedFencesFailTheTaskOnlyAfterTheTransientTimeout() {
        // row 27: a resumed zombie instance of the own id re-fences the live one again and again
        fences.fenced(false);
        clock.advance(LIMIT);
        fences.fenced(false);

        assertThat(fences.overLimit()).isEmpty();

        clock.advance(Duration.ofMillis(1));

        assertThat(fences.overLimit()).contains(LIMIT.plusMillis(1));
    }

    @Test
    void theClockStartsAtTheFirstUnexplainedFenceAfterTheLastCommit() {
        fences.fenced(true);
        clock.advance(Duration.ofMinutes(4));
        fences.fenced(false);
        clock.advance(Duration.ofMinutes(4));
        fences.fenced(false);
        fences.fenced(true);
        clock.advance(Duration.ofMinutes(2));

        assertThat(fences.overLimit()).contains(Duration.ofMinutes(6));
    }

    @Test
    void aCommitBetweenUnexplainedFencesRestartsTheClock() {
        // row 27: once Connect stops the other instance, the live one commits
        fences.fenced(false);
        clock.advance(Duration.ofMinutes(4));
        fences.committed();
        clock.advance(Duration.ofMinutes(4));
        fences.fenced(false);
        clock.advance(Duration.ofMinutes(4));

        assertThat(fences.overLimit()).isEmpty();

        fences.committed();
        clock.advance(Duration.ofHours(1));

        assertThat(fences.overLimit()).isEmpty();
    }
}
