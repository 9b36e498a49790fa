package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayState;
import dev.quarantine.replay.WrittenOffsets;

/** One test per row of {@link OverlapRule}'s table. */
class OverlapRuleTest {

    private static final Uuid NOW = Uuid.randomUuid();
    private static final Uuid DELETED = Uuid.randomUuid();

    private static Optional<ReplayProgress> progress(ReplayState state, Uuid topicId) {
        return Optional.of(new ReplayProgress("r-1", "orders.dlq", topicId, state, new TreeMap<>(), new TreeMap<>(),
                new TreeMap<>(), ReplayCounts.ZERO, WrittenOffsets.NONE, Instant.EPOCH, Instant.EPOCH));
    }

    @Test
    void aConnectorWithoutProgressBlocksAsStarting() {
        assertThat(OverlapRule.blockingState(Optional.empty(), () -> Optional.of(NOW))).contains("STARTING");
    }

    @Test
    void aFinishedReplayDoesNotBlock() {
        assertThat(OverlapRule.blockingState(progress(ReplayState.DONE, NOW), () -> Optional.of(NOW))).isEmpty();
        assertThat(OverlapRule.blockingState(progress(ReplayState.CANCELLED, NOW), () -> Optional.of(NOW))).isEmpty();
    }

    @Test
    void aReplayRunningOnATopicDeletedSinceDoesNotBlock() {
        assertThat(OverlapRule.blockingState(progress(ReplayState.RUNNING, DELETED), () -> Optional.of(NOW))).isEmpty();
        assertThat(OverlapRule.blockingState(progress(ReplayState.RUNNING, DELETED), Optional::empty)).isEmpty();
    }

    @Test
    void aReplayRunningOnTheTopicAsItIsNowBlocksAsRunning() {
        assertThat(OverlapRule.blockingState(progress(ReplayState.RUNNING, NOW), () -> Optional.of(NOW))).contains("RUNNING");
    }
}
