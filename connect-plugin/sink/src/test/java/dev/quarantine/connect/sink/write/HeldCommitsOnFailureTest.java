package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link HeldCommitsOnFailure}'s table, row by row. */
class HeldCommitsOnFailureTest {

    @Test
    void failsWithTheFailureAloneWhenNothingWasHeld() {
        assertThat(HeldCommitsOnFailure.of(false, true)).isEqualTo(HeldCommitsOnFailure.NONE_HELD);
        assertThat(HeldCommitsOnFailure.of(false, false)).isEqualTo(HeldCommitsOnFailure.NONE_HELD);
    }

    @Test
    void namesTheHeldRecordsAsLostWhenTheAbortFailed() {
        assertThat(HeldCommitsOnFailure.of(true, false)).isEqualTo(HeldCommitsOnFailure.PRODUCER_BROKEN);
    }

    @Test
    void commitsTheIntentWhenTheAbortWorked() {
        assertThat(HeldCommitsOnFailure.of(true, true)).isEqualTo(HeldCommitsOnFailure.COMMIT_INTENT);
    }
}
