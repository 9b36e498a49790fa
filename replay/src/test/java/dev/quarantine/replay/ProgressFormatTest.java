package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ProgressFormatTest {

    private static final Instant START = Instant.parse("2026-12-01T03:00:00Z");

    @Test
    void readsBackWhatItWrites() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", Map.of(0, 0L, 1, 5L),
                        Map.of(0, 100L, 1, 50L), START)
                .advanced(Map.of(0, 40L, 1, 50L), new ReplayCounts(30, 2, 1, 4, 3, 0), START.plusSeconds(9));

        ReplayProgress read = ProgressFormat.read(ProgressFormat.write(progress));

        assertThat(read).isEqualTo(progress);
        assertThat(read.state()).isEqualTo(ReplayState.RUNNING);
        assertThat(read.offsetsRead()).isEqualTo(40 + 45);
        assertThat(read.offsetsInRange()).isEqualTo(100 + 45);
    }

    @Test
    void aReplayIsDoneWhenEveryPartitionReachedTheEndOfItsRange() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", Map.of(0, 0L), Map.of(0, 10L), START);

        assertThat(progress.advanced(Map.of(0, 9L), ReplayCounts.ZERO, START).state()).isEqualTo(ReplayState.RUNNING);
        assertThat(progress.advanced(Map.of(0, 10L), ReplayCounts.ZERO, START).state()).isEqualTo(ReplayState.DONE);
        assertThat(ReplayProgress.started("empty", "orders.dlq", Map.of(0, 7L), Map.of(0, 7L), START).finished())
                .isTrue();
    }

    @Test
    void rejectsARecordThatIsNotProgress() {
        assertThatThrownBy(() -> ProgressFormat.read("hello".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a replay progress record");
    }
}
