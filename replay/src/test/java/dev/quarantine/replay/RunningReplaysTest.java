package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/** One test per row of {@link RunningReplays}' table. */
class RunningReplaysTest {

    private static final Uuid DLQ_ID = Uuid.randomUuid();
    private static final Instant NOW = Instant.parse("2026-12-02T15:00:00Z");

    /** A replay starting: partition 0 from 0 to 100, partition 1 from 0 to 50. */
    private static final ReplayProgress CANDIDATE = replay("new", "orders.dlq", DLQ_ID, ReplayState.RUNNING,
            Map.of(0, 0L, 1, 0L), Map.of(0, 100L, 1, 50L));

    @Test
    void theSameReplayIdResumingIsNoConflict() {
        ReplayProgress itself = replay("new", "orders.dlq", DLQ_ID, ReplayState.RUNNING, Map.of(0, 0L), Map.of(0, 80L));

        assertThat(RunningReplays.overlapping(CANDIDATE, List.of(itself))).isEmpty();
    }

    @Test
    void aFinishedReplayIsNoConflict() {
        for (ReplayState finished : List.of(ReplayState.DONE, ReplayState.CANCELLED)) {
            ReplayProgress other = replay("old", "orders.dlq", DLQ_ID, finished, Map.of(0, 0L), Map.of(0, 100L));

            assertThat(RunningReplays.overlapping(CANDIDATE, List.of(other))).as(finished.name()).isEmpty();
        }
    }

    @Test
    void aReplayOfAnotherTopicOrOfATopicDeletedSinceUnderTheSameNameIsNoConflict() {
        ReplayProgress otherTopic = replay("a", "payments.dlq", DLQ_ID, ReplayState.RUNNING, Map.of(0, 0L),
                Map.of(0, 100L));
        ReplayProgress deletedTopic = replay("b", "orders.dlq", Uuid.randomUuid(), ReplayState.RUNNING,
                Map.of(0, 0L), Map.of(0, 100L));

        assertThat(RunningReplays.overlapping(CANDIDATE, List.of(otherTopic, deletedTopic))).isEmpty();
    }

    @Test
    void aRunningReplayWhoseRangesShareNoOffsetIsNoConflict() {
        ReplayProgress after = replay("after", "orders.dlq", DLQ_ID, ReplayState.RUNNING, Map.of(0, 100L, 1, 50L),
                Map.of(0, 120L, 1, 60L));
        ReplayProgress emptyRange = replay("empty", "orders.dlq", DLQ_ID, ReplayState.RUNNING, Map.of(0, 10L),
                Map.of(0, 10L));
        ReplayProgress otherPartition = replay("p2", "orders.dlq", DLQ_ID, ReplayState.RUNNING, Map.of(2, 0L),
                Map.of(2, 100L));

        assertThat(RunningReplays.overlapping(CANDIDATE, List.of(after, emptyRange, otherPartition))).isEmpty();
    }

    @Test
    void aRunningReplayWhoseRangeSharesAnOffsetConflictsTheFirstByIdNamed() {
        ReplayProgress lastOffset = replay("z-last", "orders.dlq", DLQ_ID, ReplayState.RUNNING, Map.of(1, 49L),
                Map.of(1, 70L));
        ReplayProgress inside = replay("m-inside", "orders.dlq", DLQ_ID, ReplayState.RUNNING, Map.of(0, 10L),
                Map.of(0, 20L));

        assertThat(RunningReplays.overlapping(CANDIDATE, List.of(lastOffset))).map(ReplayProgress::replayId)
                .contains("z-last");
        assertThat(RunningReplays.overlapping(CANDIDATE, List.of(lastOffset, inside)))
                .map(ReplayProgress::replayId).contains("m-inside");
        assertThat(RunningReplays.sharedPartition(CANDIDATE, lastOffset)).contains(1);
    }

    private static ReplayProgress replay(String id, String dlq, Uuid dlqId, ReplayState state, Map<Integer, Long> start,
                                         Map<Integer, Long> end) {
        return new ReplayProgress(id, dlq, dlqId, state, new TreeMap<>(start), new TreeMap<>(end),
                new TreeMap<>(start), ReplayCounts.ZERO, WrittenOffsets.NONE, NOW, NOW);
    }
}
