package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class PeerLimitsTest {

    private static final PeerLimits LIMITS = new PeerLimits(3, 2, Duration.ofMillis(100), Duration.ofMillis(200),
            Duration.ofMillis(300), Duration.ofMillis(400));

    @Test
    void admitsConnectionsUpToTheCapPerAddressAndBeyondTheCapMakesRoom() {
        assertThat(LIMITS.admission(0, 0)).isEqualTo(PeerLimits.Admission.ADMIT);
        assertThat(LIMITS.admission(2, 1)).isEqualTo(PeerLimits.Admission.ADMIT);
        assertThat(LIMITS.admission(2, 2)).as("its address holds its share").isEqualTo(PeerLimits.Admission.REFUSE);
        assertThat(LIMITS.admission(3, 2)).as("full, and its address holds its share")
                .isEqualTo(PeerLimits.Admission.REFUSE);
        assertThat(LIMITS.admission(3, 0)).as("the listener is full").isEqualTo(PeerLimits.Admission.MAKE_ROOM);
        assertThat(LIMITS.admission(1_000, 1)).isEqualTo(PeerLimits.Admission.MAKE_ROOM);
    }

    @Test
    void onlyAConnectionThatHasNotSentAWholeRequestMakesRoom() {
        assertThat(PeerLimits.makesRoom(PeerLimits.Phase.HEAD)).isTrue();
        assertThat(PeerLimits.makesRoom(PeerLimits.Phase.BODY)).isTrue();
        assertThat(PeerLimits.makesRoom(PeerLimits.Phase.HANDLING)).as("a request being answered").isFalse();
        assertThat(PeerLimits.makesRoom(PeerLimits.Phase.WRITING)).as("an answer being sent").isFalse();
        assertThat(PeerLimits.makesRoom(PeerLimits.Phase.IDLE)).as("kept alive after a signed answer").isFalse();
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
