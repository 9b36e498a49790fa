package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** One test per row of {@link ProgressChecks}' table, and what is already replayed. */
class ProgressChecksTest {

    private static final Uuid DLQ_ID = Uuid.randomUuid();
    private static final Instant NOW = Instant.parse("2026-12-03T03:00:00Z");
    private static final ReplayConfig CONFIG = new ReplayConfig(ReplayConfigTest.settings());

    @Test
    void aCommittedProgressOfAnotherDeadLetterTopicIsRefusedNamingTheReplayId() {
        ReplayProgress other = progress("fix-1", "payments.dlq", DLQ_ID, ReplayState.RUNNING, WrittenOffsets.NONE);

        assertThatThrownBy(() -> ProgressChecks.requireOfThisTopic(CONFIG, Optional.of(other), ": choose another id"))
                .isInstanceOf(ConfigException.class).hasMessageContaining(ReplayConfig.REPLAY_ID_CONFIG)
                .hasMessageEndingWith("is the id of a replay of payments.dlq, not of orders.dlq: choose another id");
        assertThatCode(() -> ProgressChecks.requireOfThisTopic(CONFIG, Optional.empty(), ""))
                .as("no progress committed yet").doesNotThrowAnyException();
        assertThatCode(() -> ProgressChecks.requireOfThisTopic(CONFIG, Optional.of(progress("fix-1", "orders.dlq",
                DLQ_ID, ReplayState.RUNNING, WrittenOffsets.NONE)), "")).doesNotThrowAnyException();
    }

    @Test
    void anUnfinishedProgressOfATopicDeletedSinceIsRefusedAFinishedOneIsAnsweredAsItIs() {
        Uuid before = Uuid.randomUuid();
        ReplayProgress running = progress("fix-1", "orders.dlq", before, ReplayState.RUNNING, WrittenOffsets.NONE);
        ReplayProgress done = progress("fix-1", "orders.dlq", before, ReplayState.DONE, WrittenOffsets.NONE);

        assertThatThrownBy(() -> ProgressChecks.requireResumable(CONFIG, Optional.of(running), DLQ_ID))
                .isInstanceOf(ConfigException.class).hasMessageContaining(ReplayConfig.REPLAY_ID_CONFIG)
                .hasMessageContaining("deleted since (topic id " + before + ", now " + DLQ_ID + ")");
        assertThatCode(() -> ProgressChecks.requireResumable(CONFIG, Optional.of(done), DLQ_ID))
                .doesNotThrowAnyException();
        assertThatCode(() -> ProgressChecks.requireResumable(CONFIG, Optional.of(running), before))
                .doesNotThrowAnyException();
    }

    @Test
    void aTopicDeletedOrCreatedAgainSinceTheRangeWasCapturedStopsTheReplay() {
        ReplayProgress running = progress("fix-1", "orders.dlq", DLQ_ID, ReplayState.RUNNING, WrittenOffsets.NONE);
        Uuid recreated = Uuid.randomUuid();

        assertThatThrownBy(() -> ProgressChecks.requireStillCaptured(CONFIG, running, Optional.empty()))
                .isInstanceOf(ConfigException.class).hasMessageContaining(ReplayConfig.REPLAY_ID_CONFIG)
                .hasMessageContaining("the topic was deleted since the replay captured its range");
        assertThatThrownBy(() -> ProgressChecks.requireStillCaptured(CONFIG, running, Optional.of(recreated)))
                .hasMessageContaining("deleted and created again (topic id " + DLQ_ID + ", now " + recreated + ")");
        assertThatCode(() -> ProgressChecks.requireStillCaptured(CONFIG, running, Optional.of(DLQ_ID)))
                .doesNotThrowAnyException();
    }

    @Test
    void writtenRangesPastTheLimitAreRefusedNamingTheLimit() {
        Map<String, Object> settings = ReplayConfigTest.settings();
        settings.put(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG, "2");
        ReplayConfig limited = new ReplayConfig(settings);
        WrittenOffsets two = WrittenOffsets.NONE.plus(0, 1, null).plus(0, 5, 3L);

        assertThatCode(() -> ProgressChecks.requireWithinRangeLimit(limited, two)).doesNotThrowAnyException();
        assertThatThrownBy(() -> ProgressChecks.requireWithinRangeLimit(limited, two.plus(1, 0, null)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG)
                .hasMessageContaining("would make 3 ranges of written dead letters");
    }

    @Test
    void alreadyReplayedIsWhatFinishedOtherReplaysOfThisTopicWrote() {
        WrittenOffsets at1 = WrittenOffsets.NONE.plus(0, 1, null);
        WrittenOffsets at2 = WrittenOffsets.NONE.plus(0, 2, null);
        WrittenOffsets at3 = WrittenOffsets.NONE.plus(0, 3, null);
        WrittenOffsets at4 = WrittenOffsets.NONE.plus(0, 4, null);
        WrittenOffsets at5 = WrittenOffsets.NONE.plus(0, 5, null);
        List<ReplayProgress> replays = List.of(
                progress("done", "orders.dlq", DLQ_ID, ReplayState.DONE, at1),
                progress("cancelled", "orders.dlq", DLQ_ID, ReplayState.CANCELLED, at2),
                progress("running", "orders.dlq", DLQ_ID, ReplayState.RUNNING, at3),
                progress("fix-1", "orders.dlq", DLQ_ID, ReplayState.DONE, at4),
                progress("deleted-topic", "orders.dlq", Uuid.randomUuid(), ReplayState.DONE, at5),
                progress("other-topic", "payments.dlq", DLQ_ID, ReplayState.DONE, at5));

        WrittenOffsets skipped = ProgressChecks.alreadyReplayed(CONFIG, replays, DLQ_ID);

        assertThat(skipped.contains(0, 1)).as("a DONE replay's").isTrue();
        assertThat(skipped.contains(0, 2)).as("a CANCELLED replay's").isTrue();
        assertThat(skipped.contains(0, 3)).as("a RUNNING replay's").isFalse();
        assertThat(skipped.contains(0, 4)).as("this replay's own").isFalse();
        assertThat(skipped.contains(0, 5)).as("another topic's, or one deleted since").isFalse();
    }

    private static ReplayProgress progress(String id, String dlq, Uuid dlqId, ReplayState state,
                                           WrittenOffsets written) {
        return new ReplayProgress(id, dlq, dlqId, state, new TreeMap<>(Map.of(0, 0L)), new TreeMap<>(Map.of(0, 10L)),
                new TreeMap<>(Map.of(0, 0L)), ReplayCounts.ZERO, written, NOW, NOW);
    }
}
