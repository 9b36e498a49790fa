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
    void sealingLeavesTheRangesToTheSegmentRecordsAndRangesReadBackAnswerWhatWasWrittenAndNothingElse() {
        WrittenOffsets written = WrittenOffsets.NONE.plus(0, 0, null).plus(0, 2, null).plus(1, 5, null);

        WrittenOffsets sealed = written.sealedInto(2).plus(0, 4, 3L);

        assertThat(sealed.ranges()).containsOnlyKeys(0).containsEntry(0, List.of(new Range(4, 4)));
        assertThat(sealed.segments()).isEqualTo(2);
        assertThat(sealed.rangeCount()).isOne();
        assertThat(sealed.contains(0, 0)).as("held by a segment record, not here").isFalse();
        WrittenOffsets readBack = sealed.withSealed(written.ranges());
        assertThat(readBack.contains(0, 0)).isTrue();
        assertThat(readBack.contains(0, 1)).as("never written").isFalse();
        assertThat(readBack.contains(0, 2)).isTrue();
        assertThat(readBack.contains(0, 3)).as("never written").isFalse();
        assertThat(readBack.contains(0, 4)).isTrue();
        assertThat(readBack.contains(1, 5)).isTrue();
    }

    @Test
    void theUnionHoldsTheOpenAndTheSealedRangesOfBoth() {
        WrittenOffsets a = WrittenOffsets.NONE.sealedInto(1).withSealed(Map.of(0, List.of(new Range(0, 0))))
                .plus(0, 9, null);
        WrittenOffsets b = WrittenOffsets.NONE.plus(0, 4, null);

        WrittenOffsets union = a.union(b);

        assertThat(union.ranges().get(0)).containsExactly(new Range(0, 0), new Range(4, 4), new Range(9, 9));
        assertThat(union.segments()).isZero();
    }
}
