package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SeenNoncesTest {

    @Test
    void aNonceIsAcceptedOnceUntilItExpires() {
        SeenNonces cache = new SeenNonces(10);

        assertThat(cache.firstUse("a", 1_000, 0)).isEqualTo(SeenNonces.Outcome.FIRST_USE);
        assertThat(cache.firstUse("a", 1_000, 500)).isEqualTo(SeenNonces.Outcome.REPLAYED);
        assertThat(cache.firstUse("a", 1_000, 1_000)).as("still live at its expiry")
                .isEqualTo(SeenNonces.Outcome.REPLAYED);
        assertThat(cache.firstUse("b", 2_000, 1_001)).isEqualTo(SeenNonces.Outcome.FIRST_USE);
        assertThat(cache.size()).as("a forgotten once past its expiry").isEqualTo(1);
    }

    @Test
    void whenFullRefusesNewNoncesRatherThanForgettingLiveOnes() {
        SeenNonces cache = new SeenNonces(2);
        cache.firstUse("a", 1_000, 0);
        cache.firstUse("b", 1_000, 0);

        assertThat(cache.firstUse("c", 1_000, 10)).isEqualTo(SeenNonces.Outcome.FULL);
        assertThat(cache.firstUse("a", 1_000, 10)).isEqualTo(SeenNonces.Outcome.REPLAYED);
        assertThat(cache.firstUse("c", 2_000, 1_001)).as("room again once a and b expired")
                .isEqualTo(SeenNonces.Outcome.FIRST_USE);
    }

    @Test
    void expiresEntriesInTheOrderOfTheirExpiryNotOfTheirArrival() {
        SeenNonces cache = new SeenNonces(10);
        cache.firstUse("late", 5_000, 0);
        cache.firstUse("early", 1_000, 0);

        assertThat(cache.firstUse("x", 9_000, 2_000)).isEqualTo(SeenNonces.Outcome.FIRST_USE);
        assertThat(cache.firstUse("late", 5_000, 2_000)).isEqualTo(SeenNonces.Outcome.REPLAYED);
        assertThat(cache.firstUse("early", 3_000, 2_000)).isEqualTo(SeenNonces.Outcome.FIRST_USE);
    }
}
