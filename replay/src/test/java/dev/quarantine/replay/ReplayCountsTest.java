package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplayCountsTest {

    @Test
    void eachOutcomeRaisesItsOwnCount() {
        assertThat(ReplayCounts.ZERO.plus(Outcome.REPLAYED)).isEqualTo(new ReplayCounts(1, 0, 0, 0, 0, 0, 0, 0));
        assertThat(ReplayCounts.ZERO.plus(Outcome.DEAD_LETTERED_AGAIN))
                .isEqualTo(new ReplayCounts(0, 1, 0, 0, 0, 0, 0, 0));
        assertThat(ReplayCounts.ZERO.plus(Outcome.PARKED)).isEqualTo(new ReplayCounts(0, 0, 1, 0, 0, 0, 0, 0));
        assertThat(ReplayCounts.ZERO.plus(Outcome.SKIPPED_BY_FILTER))
                .isEqualTo(new ReplayCounts(0, 0, 0, 1, 0, 0, 0, 0));
        assertThat(ReplayCounts.ZERO.plus(Outcome.SKIPPED_TRUNCATED))
                .isEqualTo(new ReplayCounts(0, 0, 0, 0, 1, 0, 0, 0));
        assertThat(ReplayCounts.ZERO.plus(Outcome.SKIPPED_UNROUTABLE))
                .isEqualTo(new ReplayCounts(0, 0, 0, 0, 0, 1, 0, 0));
        assertThat(ReplayCounts.ZERO.plus(Outcome.REFUSED_DESTINATION).refused()).isOne();
        assertThat(ReplayCounts.ZERO.plus(Outcome.SKIPPED_ALREADY_REPLAYED).alreadyReplayed()).isOne();
    }
}
