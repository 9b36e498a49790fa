package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rows of {@link PutOutcome}'s table. */
class PutOutcomeTest {

    @Test
    void aFailureForGoodFailsThePutWhateverElseHappened() {
        assertThat(PutOutcome.of(true, false, false)).isEqualTo(PutOutcome.FAIL);
        assertThat(PutOutcome.of(true, true, true)).isEqualTo(PutOutcome.FAIL);
    }

    @Test
    void aPutWithoutFailuresSucceedsWithOrWithoutSeeks() {
        assertThat(PutOutcome.of(false, false, false)).isEqualTo(PutOutcome.SUCCEED);
        assertThat(PutOutcome.of(false, false, true)).isEqualTo(PutOutcome.SUCCEED);
    }

    @Test
    void aTransientFailureIsRetriedThroughConnectOnlyWhenThePutAskedForNoSeek() {
        assertThat(PutOutcome.of(false, true, false)).isEqualTo(PutOutcome.RETRY);
    }

    @Test
    void aTransientFailureInAPutThatAskedForASeekSeeksTheFailedPartitionsBackInstead() {
        assertThat(PutOutcome.of(false, true, true)).isEqualTo(PutOutcome.SEEK_BACK);
    }
}
