package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ProgressFormatTest {

    private static final Instant START = Instant.parse("2026-12-01T03:00:00Z");

    @Test
    void readsBackWhatItWrites() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", Map.of(0, 0L, 1, 5L),
                        Map.of(0, 100L, 1, 50L), START)
                .advanced(Map.of(0, 40L, 1, 50L), new ReplayCounts(30, 2, 1, 4, 3, 0, 5, 6),
                        WrittenOffsets.NONE.plus(0, 3, null).plus(0, 5, 3L).plus(0, 9, 7L).plus(1, 6, null),
                        START.plusSeconds(9));

        ReplayProgress read = ProgressFormat.read(ProgressFormat.write(progress));

        assertThat(read).isEqualTo(progress);
        assertThat(read.state()).isEqualTo(ReplayState.RUNNING);
        assertThat(read.offsetsRead()).isEqualTo(40 + 45);
        assertThat(read.offsetsInRange()).isEqualTo(100 + 45);
        assertThat(read.written().ranges()).containsEntry(0, List.of(new WrittenOffsets.Range(3, 5),
                new WrittenOffsets.Range(9, 9))).containsEntry(1, List.of(new WrittenOffsets.Range(6, 6)));
        assertThat(new String(ProgressFormat.write(progress), StandardCharsets.UTF_8)).contains("written.0=3-5,9-9\n")
                .contains("count.refused=5\n").contains("count.already.replayed=6\n");
    }

    @Test
    void readsARecordWrittenBeforeRefusedAlreadyReplayedAndWrittenExisted() {
        String old = "format=1\nreplay.id=r\ndlq=d\nstate=DONE\nstart.0=0\nend.0=5\nnext.0=5\ncount.replayed=5\n"
                + "count.dead.lettered.again=0\ncount.parked=0\ncount.skipped.filter=0\ncount.skipped.truncated=0\n"
                + "count.skipped.unroutable=0\nstarted=2026-12-01T03:00:00Z\nupdated=2026-12-01T03:00:09Z\n";

        ReplayProgress read = ProgressFormat.read(old.getBytes(StandardCharsets.UTF_8));

        assertThat(read.counts()).isEqualTo(new ReplayCounts(5, 0, 0, 0, 0, 0, 0, 0));
        assertThat(read.written()).isEqualTo(WrittenOffsets.NONE);
    }

    @Test
    void aReplayIsDoneWhenEveryPartitionReachedTheEndOfItsRange() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", Map.of(0, 0L), Map.of(0, 10L), START);

        assertThat(progress.advanced(Map.of(0, 9L), ReplayCounts.ZERO, WrittenOffsets.NONE, START).state())
                .isEqualTo(ReplayState.RUNNING);
        assertThat(progress.advanced(Map.of(0, 10L), ReplayCounts.ZERO, WrittenOffsets.NONE, START).state())
                .isEqualTo(ReplayState.DONE);
        assertThat(ReplayProgress.started("empty", "orders.dlq", Map.of(0, 7L), Map.of(0, 7L), START).finished())
                .isTrue();
    }

    @Test
    void rejectsARecordThatIsNotProgress() {
        assertThatThrownBy(() -> ProgressFormat.read("hello".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a replay progress record");
    }

    @Test
    void readsBackApproximateWrittenOffsets() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", Map.of(0, 0L), Map.of(0, 100L), START)
                .advanced(Map.of(0, 40L), ReplayCounts.ZERO, WrittenOffsets.of(Map.of(0,
                        List.of(new WrittenOffsets.Range(0, 39))), true), START);

        byte[] value = ProgressFormat.write(progress);

        assertThat(new String(value, StandardCharsets.UTF_8)).contains("written.approximate=true\n");
        assertThat(ProgressFormat.read(value)).isEqualTo(progress);
        assertThat(ProgressFormat.read(value).written().approximate()).isTrue();
    }

    @Test
    void aProgressOfEverySecondDeadLetterWrittenIsFittedIntoItsLimitKeepingEveryWrittenOne() {
        WrittenOffsets written = WrittenOffsets.NONE;
        for (long offset = 0; offset < 280_000; offset += 2) { // every second one refused: a range each
            written = written.plus(0, offset, offset == 0 ? null : offset - 1);
        }
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", Map.of(0, 0L), Map.of(0, 300_000L),
                START).advanced(Map.of(0, 280_000L), ReplayCounts.ZERO, written, START);
        assertThat(ProgressFormat.write(progress).length).as("the unbounded record").isGreaterThan(1_048_576);

        ReplayProgress fitted = ProgressFormat.fitted(progress, 1_000_000);

        assertThat(ProgressFormat.write(fitted).length).isLessThanOrEqualTo(ProgressFormat.MAX_RECORD_BYTES);
        assertThat(fitted.written().approximate()).isTrue();
        assertThat(fitted.withWritten(progress.written())).isEqualTo(progress);
        for (long offset = 0; offset < 280_000; offset += 2) {
            assertThat(fitted.written().contains(0, offset)).isTrue();
        }
        ReplayProgress small = ProgressFormat.fitted(progress, 2_000);
        assertThat(ProgressFormat.write(small).length).isLessThanOrEqualTo(2_000);
    }

    @Test
    void aProgressThatFitsIsUnchanged() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", Map.of(0, 0L), Map.of(0, 10L), START)
                .advanced(Map.of(0, 5L), ReplayCounts.ZERO, WrittenOffsets.NONE.plus(0, 1, null).plus(0, 3, 2L), START);

        assertThat(ProgressFormat.fitted(progress, 2_000)).isSameAs(progress);
    }
}
