package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplayCacheTest {

    @Test
    void aNonceIsAcceptedOnceUntilItExpires() {
        ReplayCache cache = new ReplayCache(10);

        assertThat(cache.firstUse("a", 1_000, 0)).isEqualTo(ReplayCache.Outcome.FIRST_USE);
        assertThat(cache.firstUse("a", 1_000, 500)).isEqualTo(ReplayCache.Outcome.REPLAYED);
        assertThat(cache.firstUse("a", 1_000, 1_000)).as("still live at its expiry")
                .isEqualTo(ReplayCache.Outcome.REPLAYED);
        assertThat(cache.firstUse("b", 2_000, 1_001)).isEqualTo(ReplayCache.Outcome.FIRST_USE);
        assertThat(cache.size()).as("a forgotten once past its expiry").isEqualTo(1);
    }

    @Test
    void whenFullRefusesNewNoncesRatherThanForgettingLiveOnes() {
        ReplayCache cache = new ReplayCache(2);
        cache.firstUse("a", 1_000, 0);
        cache.firstUse("b", 1_000, 0);

        assertThat(cache.firstUse("c", 1_000, 10)).isEqualTo(ReplayCache.Outcome.FULL);
        assertThat(cache.firstUse("a", 1_000, 10)).isEqualTo(ReplayCache.Outcome.REPLAYED);
        assertThat(cache.firstUse("c", 2_000, 1_001)).as("room again once a and b expired")
                .isEqualTo(ReplayCache.Outcome.FIRST_USE);
    }

    @Test
    void expiresEntriesInTheOrderOfTheirExpiryNotOfTheirArrival() {
        ReplayCache cache = new ReplayCache(10);
        cache.firstUse("late", 5_000, 0);
        cache.firstUse("early", 1_000, 0);

        assertThat(cache.firstUse("x", 9_000, 2_000)).isEqualTo(ReplayCache.Outcome.FIRST_USE);
        assertThat(cache.firstUse("late", 5_000, 2_000)).isEqualTo(ReplayCache.Outcome.REPLAYED);
        assertThat(cache.firstUse("early", 3_000, 2_000)).isEqualTo(ReplayCache.Outcome.FIRST_USE);
    }
}
