package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.quarantine.replay.WrittenOffsets.Range;

class WrittenOffsetsTest {

    @Test
    void aRangeGrowsOverDeadLettersReadOneAfterAnotherAndEndsAtASkippedOne() {
        WrittenOffsets written = WrittenOffsets.NONE.plus(0, 10, null).plus(0, 11, 10L)
                .plus(0, 13, 11L) // 12 is a transaction marker: read 11, then 13
                .plus(0, 16, 14L); // 14 was read and skipped

        assertThat(written.ranges().get(0)).containsExactly(new Range(10, 13), new Range(16, 16));
        assertThat(written.contains(0, 12)).isTrue();
        assertThat(written.contains(0, 14)).isFalse();
        assertThat(written.contains(0, 15)).isFalse();
        assertThat(written.contains(0, 16)).isTrue();
        assertThat(written.contains(0, 9)).isFalse();
        assertThat(written.contains(1, 10)).isFalse();
        assertThat(written.rangeCount()).isEqualTo(2);
    }

    @Test
    void theUnionMergesOverlappingAndAdjacentRanges() {
        WrittenOffsets a = WrittenOffsets.of(Map.of(0, List.of(new Range(0, 4), new Range(10, 12))));
        WrittenOffsets b = WrittenOffsets.of(Map.of(0, List.of(new Range(5, 6)), 1, List.of(new Range(3, 3))));

        WrittenOffsets union = a.union(b);

        assertThat(union.ranges().get(0)).containsExactly(new Range(0, 6), new Range(10, 12));
        assertThat(union.ranges().get(1)).containsExactly(new Range(3, 3));
    }

    @Test
    void coalescingFillsTheSmallestGapsFirstAndMarksTheOffsetsApproximate() {
        WrittenOffsets written = WrittenOffsets.of(Map.of(0, List.of(new Range(0, 1), new Range(3, 3),
                new Range(10, 12), new Range(14, 14)), 1, List.of(new Range(5, 5), new Range(7, 7))));

        WrittenOffsets coalesced = written.coalesced(3); // three gaps of 1, one of 6

        assertThat(coalesced.ranges().get(0)).containsExactly(new Range(0, 3), new Range(10, 14));
        assertThat(coalesced.ranges().get(1)).containsExactly(new Range(5, 7));
        assertThat(coalesced.approximate()).isTrue();
        assertThat(written.approximate()).isFalse();
    }

    @Test
    void coalescingKeepsEveryWrittenOffsetAndAtLeastOneRangePerPartition() {
        WrittenOffsets written = WrittenOffsets.NONE;
        for (long offset = 0; offset < 1_000; offset += 2) { // every second dead letter skipped
            written = written.plus((int) (offset % 3), offset, null);
        }

        WrittenOffsets coalesced = written.coalesced(1);

        assertThat(coalesced.rangeCount()).isEqualTo(3);
        for (long offset = 0; offset < 1_000; offset += 2) {
            assertThat(coalesced.contains((int) (offset % 3), offset)).as("offset %d", offset).isTrue();
        }
    }

    @Test
    void fewEnoughRangesAreNotCoalesced() {
        WrittenOffsets written = WrittenOffsets.of(Map.of(0, List.of(new Range(0, 1), new Range(3, 3))));

        assertThat(written.coalesced(2)).isSameAs(written);
        assertThat(written.coalesced(2).approximate()).isFalse();
    }

    @Test
    void theUnionOfApproximateOffsetsIsApproximate() {
        WrittenOffsets exact = WrittenOffsets.of(Map.of(0, List.of(new Range(0, 1))));
        WrittenOffsets approximate = WrittenOffsets.of(Map.of(0, List.of(new Range(5, 9))), true);

        assertThat(exact.union(approximate).approximate()).isTrue();
        assertThat(exact.union(exact).approximate()).isFalse();
    }
}
