package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Instant;
import java.util.Map;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

class DryRunReportTest {

    private static final Instant NOW = Instant.parse("2026-12-02T13:00:00Z");
    private static final Map<Integer, Long> START = Map.of(0, 0L, 1, 10L, 2, 5L);
    private static final Map<Integer, Long> END = Map.of(0, 100L, 1, 50L, 2, 5L);

    @Test
    void untilOfADryRunThatRanOutOfTimeIsWhereItReadUpToPerPartitionNotTheEndOfItsRange() {
        ReplayProgress outOfTime = ReplayProgress.started("dry", "orders.dlq", Uuid.randomUuid(), START, END, NOW)
                .advanced(Map.of(0, 40L, 1, 10L, 2, 5L), ReplayCounts.ZERO, WrittenOffsets.NONE, NOW);

        DryRunReport report = DryRunReport.of(Map.of(), Map.of(), outOfTime);

        assertThat(report.complete()).isFalse();
        assertThat(report.until()).containsExactly(
                entry(0, 40L), // read part of its range: up to there
                entry(1, 10L), // not read at all: its start, a replay bound to it reads nothing there
                entry(2, 5L)); // nothing in its range: its start, which is its end
    }

    @Test
    void untilOfADryRunThatReadItsWholeRangeIsTheEndOfTheRange() {
        ReplayProgress read = ReplayProgress.started("dry", "orders.dlq", Uuid.randomUuid(), START, END, NOW)
                .advanced(END, ReplayCounts.ZERO, WrittenOffsets.NONE, NOW);

        DryRunReport report = DryRunReport.of(Map.of(), Map.of(), read);

        assertThat(report.complete()).isTrue();
        assertThat(report.until()).containsExactly(entry(0, 100L), entry(1, 50L), entry(2, 5L));
    }
}
