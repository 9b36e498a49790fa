package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StartedReplaysTest {

    @Test
    void aReplayIsKnownForItsOwnTopicOnlyUntilItIsRemoved() {
        StartedReplays started = new StartedReplays();
        started.add("replay-1", "orders.dlq");

        assertThat(started.contains("replay-1", "orders.dlq")).isTrue();
        assertThat(started.contains("replay-1", "payments.dlq")).isFalse();
        assertThat(started.contains("replay-2", "orders.dlq")).isFalse();

        started.remove("replay-1");
        assertThat(started.contains("replay-1", "orders.dlq")).isFalse();
    }

    @Test
    void theOldestReplayIsForgottenBeyondTheBound() {
        StartedReplays started = new StartedReplays();
        for (int i = 0; i <= StartedReplays.MAX; i++) {
            started.add("replay-" + i, "orders.dlq");
        }

        assertThat(started.contains("replay-0", "orders.dlq")).isFalse();
        assertThat(started.contains("replay-1", "orders.dlq")).isTrue();
        assertThat(started.contains("replay-" + StartedReplays.MAX, "orders.dlq")).isTrue();
    }
}
