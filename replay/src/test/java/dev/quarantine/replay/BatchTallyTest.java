package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

class BatchTallyTest {

    private static final Instant NOW = Instant.parse("2026-12-03T03:00:00Z");

    @Test
    void countsEveryOutcomeAndJoinsWrittenDeadLettersReadOneAfterAnotherAcrossSkippedOffsets() {
        BatchTally tally = new BatchTally(progress(WrittenOffsets.NONE), Map.of());

        tally.add(0, 10, Outcome.REPLAYED);
        tally.add(0, 12, Outcome.PARKED);
        tally.add(0, 13, Outcome.SKIPPED_BY_FILTER);
        tally.add(0, 14, Outcome.DEAD_LETTERED_AGAIN);
        tally.add(1, 3, Outcome.REPLAYED);

        assertThat(tally.written().ranges()).isEqualTo(Map.of(
                0, List.of(new WrittenOffsets.Range(10, 12), new WrittenOffsets.Range(14, 14)),
                1, List.of(new WrittenOffsets.Range(3, 3))));
        assertThat(tally.read()).isEqualTo(Map.of(0, 14L, 1, 3L));
        ReplayProgress advanced = tally.advance(progress(WrittenOffsets.NONE), Map.of(0, 15L, 1, 4L), NOW);
        assertThat(advanced.counts()).isEqualTo(new ReplayCounts(2, 1, 1, 1, 0, 0, 0, 0));
        assertThat(advanced.nextOffsets()).isEqualTo(Map.of(0, 15L, 1, 4L));
    }

    @Test
    void aDeadLetterWrittenRightAfterTheLastOneOfTheBatchBeforeExtendsItsRange() {
        WrittenOffsets before = WrittenOffsets.NONE.plus(0, 7, null);
        BatchTally tally = new BatchTally(progress(before), Map.of(0, 7L));

        tally.add(0, 9, Outcome.REPLAYED);

        assertThat(tally.written().ranges()).isEqualTo(Map.of(0, List.of(new WrittenOffsets.Range(7, 9))));
    }

    private static ReplayProgress progress(WrittenOffsets written) {
        return new ReplayProgress("fix-1", "orders.dlq", Uuid.randomUuid(), ReplayState.RUNNING,
                new TreeMap<>(Map.of(0, 0L, 1, 0L)), new TreeMap<>(Map.of(0, 100L, 1, 100L)),
                new TreeMap<>(Map.of(0, 0L, 1, 0L)), ReplayCounts.ZERO, written, NOW, NOW);
    }
}
