package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

class ProgressFormatTest {

    private static final Instant START = Instant.parse("2026-12-01T03:00:00Z");
    private static final Uuid TOPIC_ID = Uuid.fromString("Vh6F2mYbRfaH0u1kQ2cJ0w");

    @Test
    void readsBackWhatItWrites() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", TOPIC_ID, Map.of(0, 0L, 1, 5L),
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
                .contains("count.refused=5\n").contains("count.already.replayed=6\n")
                .contains("dlq.id=Vh6F2mYbRfaH0u1kQ2cJ0w\n");
    }

    @Test
    void aRecordOfFormat1IsNotRead() {
        String old = "format=1\nreplay.id=r\ndlq=d\nstate=DONE\nstart.0=0\nend.0=5\nnext.0=5\ncount.replayed=5\n"
                + "count.dead.lettered.again=0\ncount.parked=0\ncount.skipped.filter=0\ncount.skipped.truncated=0\n"
                + "count.skipped.unroutable=0\ncount.refused=0\ncount.already.replayed=0\nwritten.0=0-4\n"
                + "written.approximate=true\nstarted=2026-12-01T03:00:00Z\nupdated=2026-12-01T03:00:09Z\n";

        assertThatThrownBy(() -> ProgressFormat.read(old.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown progress format 1");
        assertThat(new String(ProgressFormat.write(ReplayProgress.started("r", "d", TOPIC_ID, Map.of(0, 0L),
                Map.of(0, 5L), START)),
                StandardCharsets.UTF_8)).startsWith("format=2\n");
    }

    @Test
    void aRecordWithoutARequiredLineIsNotRead() {
        String whole = new String(ProgressFormat.write(ReplayProgress.started("r", "d", TOPIC_ID, Map.of(0, 0L),
                Map.of(0, 5L), START)), StandardCharsets.UTF_8);

        for (String required : List.of("count.refused", "count.already.replayed", "dlq.id")) {
            String partial = whole.replaceAll("(?m)^" + java.util.regex.Pattern.quote(required) + "=.*\n", "");
            assertThatThrownBy(() -> ProgressFormat.read(partial.getBytes(StandardCharsets.UTF_8))).as(required)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(required + " is missing");
        }
    }

    @Test
    void aReplayIsDoneWhenEveryPartitionReachedTheEndOfItsRange() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", TOPIC_ID, Map.of(0, 0L),
                Map.of(0, 10L), START);

        assertThat(progress.advanced(Map.of(0, 9L), ReplayCounts.ZERO, WrittenOffsets.NONE, START).state())
                .isEqualTo(ReplayState.RUNNING);
        assertThat(progress.advanced(Map.of(0, 10L), ReplayCounts.ZERO, WrittenOffsets.NONE, START).state())
                .isEqualTo(ReplayState.DONE);
        assertThat(ReplayProgress.started("empty", "orders.dlq", TOPIC_ID, Map.of(0, 7L), Map.of(0, 7L),
                START).finished())
                .isTrue();
    }

    @Test
    void rejectsARecordThatIsNotProgress() {
        assertThatThrownBy(() -> ProgressFormat.read("hello".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a replay progress record");
    }

    @Test
    void aProgressOfEverySecondDeadLetterWrittenIsSealedIntoSegmentsEachWithinTheLimitHoldingExactlyTheWrittenOnes() {
        List<WrittenOffsets.Range> ranges = new ArrayList<>();
        for (long offset = 0; offset < 280_000; offset += 2) { // every second one refused: a range each
            ranges.add(new WrittenOffsets.Range(offset, offset));
        }
        WrittenOffsets written = WrittenOffsets.of(Map.of(0, ranges));
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", TOPIC_ID, Map.of(0, 0L),
                Map.of(0, 300_000L), START).advanced(Map.of(0, 280_000L), ReplayCounts.ZERO, written, START);
        assertThat(ProgressFormat.write(progress).length).as("the unbounded record").isGreaterThan(1_048_576);

        ProgressFormat.Fitted fitted = ProgressFormat.fitted(progress, 1_000_000);

        assertThat(ProgressFormat.write(fitted.progress()).length).isLessThanOrEqualTo(ProgressFormat.MAX_RECORD_BYTES);
        assertThat(fitted.segments()).hasSizeGreaterThan(4).allSatisfy(segment ->
                assertThat(segment.value().length).isLessThanOrEqualTo(ProgressFormat.MAX_RECORD_BYTES));
        assertThat(fitted.progress().written().ranges()).isEmpty();
        assertThat(fitted.progress().written().segments()).isEqualTo(fitted.segments().size());
        for (int i = 0; i < fitted.segments().size(); i++) {
            assertThat(fitted.segments().get(i).key()).isEqualTo("fix-1/written/" + i);
        }
        Map<Integer, List<WrittenOffsets.Range>> read = new TreeMap<>();
        fitted.segments().forEach(segment -> ProgressFormat.readSegment(segment.key(), segment.value()).ranges()
                .forEach((p, list) -> read.computeIfAbsent(p, x -> new ArrayList<>()).addAll(list)));
        assertThat(read).isEqualTo(written.ranges());
        ReplayProgress back = ProgressFormat.read(ProgressFormat.write(fitted.progress()));
        assertThat(back).isEqualTo(fitted.progress());
        assertThat(back.written().segments()).isEqualTo(fitted.segments().size());
        WrittenOffsets sealed = back.written().withSealed(read);
        assertThat(LongStream.range(0, 280_000).filter(offset -> sealed.contains(0, offset) != (offset % 2 == 0)))
                .as("offsets answered otherwise than written").isEmpty();
        ProgressFormat.Fitted small = ProgressFormat.fitted(progress, 2_000);
        assertThat(small.segments()).allSatisfy(s -> assertThat(s.value().length).isLessThanOrEqualTo(2_000));
    }

    @Test
    void aSegmentKeyedAsAnotherReplaysIsNotRead() {
        WrittenOffsets written = WrittenOffsets.NONE;
        for (long offset = 0; offset < 2_000; offset += 2) {
            written = written.plus(0, offset, null);
        }
        ProgressFormat.Fitted fitted = ProgressFormat.fitted(ReplayProgress.started("fix-1", "orders.dlq",
                TOPIC_ID, Map.of(0, 0L), Map.of(0, 3_000L), START).advanced(Map.of(0, 2_000L), ReplayCounts.ZERO,
                written, START), 1_000);
        byte[] first = fitted.segments().get(0).value();

        assertThatThrownBy(() -> ProgressFormat.readSegment("other/written/0", first))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a replay segment record");
        assertThatThrownBy(() -> ProgressFormat.readSegment("fix-1/written/1", first))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a replay segment record");
        assertThat(ProgressFormat.isSegmentKey("fix-1/written/0")).isTrue();
        assertThat(ProgressFormat.isSegmentKey("fix-1")).isFalse();
    }

    @Test
    void aProgressThatFitsIsUnchanged() {
        ReplayProgress progress = ReplayProgress.started("fix-1", "orders.dlq", TOPIC_ID, Map.of(0, 0L),
                Map.of(0, 10L), START)
                .advanced(Map.of(0, 5L), ReplayCounts.ZERO, WrittenOffsets.NONE.plus(0, 1, null).plus(0, 3, 2L), START);

        assertThat(ProgressFormat.fitted(progress, 2_000).progress()).isSameAs(progress);
        assertThat(ProgressFormat.fitted(progress, 2_000).segments()).isEmpty();
    }
}
