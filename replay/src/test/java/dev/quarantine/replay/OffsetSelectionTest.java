package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class OffsetSelectionTest {

    @Test
    void rangesOfOnePartitionThatDoNotMeetDoNotOverlap() {
        assertThat(selection("0:0-9", "").overlaps(selection("0:10-19", ""))).isFalse();
    }

    @Test
    void rangesSharingAnOffsetOverlap() {
        assertThat(selection("0:0-9", "").overlaps(selection("0:9-19", ""))).isTrue();
        assertThat(selection("0:5-14", "").overlaps(selection("0:0-9,0:10-19", ""))).isTrue();
    }

    @Test
    void theSameOffsetsOfAnotherPartitionDoNotOverlap() {
        assertThat(selection("0:0-9", "").overlaps(selection("1:0-9", ""))).isFalse();
    }

    @Test
    void aSinglePositionOverlapsTheRangeHoldingIt() {
        assertThat(selection("", "0@12").overlaps(selection("0:10-19", ""))).isTrue();
        assertThat(selection("", "0@12").overlaps(selection("0:0-9", ""))).isFalse();
        assertThat(selection("", "dlq-0@3").overlaps(selection("", "0@3"))).isTrue();
    }

    @Test
    void noOffsetFilterSelectsEveryPositionAndOverlapsAnything() {
        assertThat(selection("", "").overlaps(selection("0:10-19", ""))).isTrue();
        assertThat(selection("1:0-0", "").overlaps(selection("", ""))).isTrue();
    }

    private static OffsetSelection selection(String ranges, String offsets) {
        Map<String, String> settings = new HashMap<>(Map.of(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
                ReplayConfig.DLQ_TOPIC_CONFIG, "dlq", ReplayConfig.REPLAY_ID_CONFIG, "r"));
        settings.put(ReplayConfig.FILTER_OFFSET_RANGES_CONFIG, ranges);
        settings.put(ReplayConfig.FILTER_OFFSETS_CONFIG, offsets);
        return OffsetSelection.of(new ReplayConfig(settings));
    }

    @Test
    void boundsTheRangeToTheFirstAndLastSelectedOffsetOfEachPartition() {
        OffsetSelection.Bounds bounds = selection("0:10-19,0:40-44", "1@7").bound(Map.of(0, 0L, 1, 0L, 2, 0L),
                Map.of(0, 100L, 1, 100L, 2, 100L));

        assertThat(bounds.start()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 10L, 1, 7L, 2, 100L));
        assertThat(bounds.end()).as("partition 2: nothing selected, an empty range")
                .containsExactlyInAnyOrderEntriesOf(Map.of(0, 45L, 1, 8L, 2, 100L));
    }

    @Test
    void boundsNeverWidenTheRange() {
        OffsetSelection.Bounds bounds = selection("0:0-500", "").bound(Map.of(0, 20L), Map.of(0, 100L));
        OffsetSelection.Bounds past = selection("0:200-300", "").bound(Map.of(0, 20L), Map.of(0, 100L));

        assertThat(bounds.start()).containsEntry(0, 20L);
        assertThat(bounds.end()).containsEntry(0, 100L);
        assertThat(past.start()).as("selected offsets not written yet: an empty range").containsEntry(0, 100L);
        assertThat(past.end()).containsEntry(0, 100L);
    }

    @Test
    void noOffsetFilterKeepsTheRange() {
        OffsetSelection.Bounds bounds = selection("", "").bound(Map.of(0, 3L, 1, 0L), Map.of(0, 9L, 1, 0L));

        assertThat(bounds.start()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 3L, 1, 0L));
        assertThat(bounds.end()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 9L, 1, 0L));
    }
}
