package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class PeerLimitsTest {

    private static final PeerLimits LIMITS = new PeerLimits(3, 2, Duration.ofMillis(100), Duration.ofMillis(200),
            Duration.ofMillis(300), Duration.ofMillis(400));

    @Test
    void admitsConnectionsUpToTheCapAndUpToTheCapPerAddress() {
        assertThat(LIMITS.admits(0, 0)).isTrue();
        assertThat(LIMITS.admits(2, 1)).isTrue();
        assertThat(LIMITS.admits(2, 2)).as("its address holds its share").isFalse();
        assertThat(LIMITS.admits(3, 0)).as("the listener is full").isFalse();
        assertThat(LIMITS.admits(1_000, 0)).isFalse();
    }

    @Test
    void eachPhaseHasItsDeadlineFromWhenItStartedButAHandledRequestNone() {
        assertThat(LIMITS.deadlineMs(PeerLimits.Phase.IDLE, 1_000)).isEqualTo(1_300);
        assertThat(LIMITS.deadlineMs(PeerLimits.Phase.HEAD, 1_000)).isEqualTo(1_100);
        assertThat(LIMITS.deadlineMs(PeerLimits.Phase.BODY, 1_000)).isEqualTo(1_200);
        assertThat(LIMITS.deadlineMs(PeerLimits.Phase.WRITING, 1_000)).isEqualTo(1_400);
        assertThat(LIMITS.deadlineMs(PeerLimits.Phase.HANDLING, 1_000)).isEqualTo(Long.MAX_VALUE);
    }
}
