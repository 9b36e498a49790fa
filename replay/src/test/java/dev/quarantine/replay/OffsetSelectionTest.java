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
}
