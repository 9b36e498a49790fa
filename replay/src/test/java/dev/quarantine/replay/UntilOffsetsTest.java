package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class UntilOffsetsTest {

    private static final Map<Integer, Long> START = Map.of(0, 10L, 1, 10L, 2, 10L, 3, 10L);
    private static final Map<Integer, Long> END = Map.of(0, 50L, 1, 50L, 2, 50L, 3, 50L);

    @Test
    void eachPartitionsRangeEndsAtItsUntilOffsetWithinWhatExists() {
        Map<Integer, Long> until = Map.of(0, 30L, 1, 80L, 2, 5L); // partition 3 not listed

        assertThat(UntilOffsets.bound(START, END, until))
                .containsEntry(0, 30L) // between start and end: until
                .containsEntry(1, 50L) // past the end: the end
                .containsEntry(2, 10L) // before the start (gone): nothing
                .containsEntry(3, 10L); // not listed: nothing, the dry run did not read it
    }

    @Test
    void readsAndWritesTheSettingsEntries() {
        Map<Integer, Long> until = UntilOffsets.parse(List.of("1:7", " 0:120 "));

        assertThat(until).containsExactlyInAnyOrderEntriesOf(Map.of(0, 120L, 1, 7L));
        assertThat(UntilOffsets.format(until)).isEqualTo("0:120,1:7");
    }

    @Test
    void refusesAnEntryThatIsNotAPartitionAndAnOffset() {
        assertThatThrownBy(() -> UntilOffsets.parse(List.of("0-120"))).hasMessageContaining("'0-120' is not");
        assertThatThrownBy(() -> UntilOffsets.parse(List.of("x:1"))).hasMessageContaining("'x:1' is not");
        assertThatThrownBy(() -> UntilOffsets.parse(List.of("0:-1"))).hasMessageContaining("at least 0");
        assertThatThrownBy(() -> UntilOffsets.parse(List.of("0:1", "0:2"))).hasMessageContaining("listed twice");
    }

    @Test
    void anUntilGivenExplicitlyListsNoPartitionWhenEveryEntryIsBlank() {
        assertThat(UntilOffsets.listsNone(List.of())).isTrue(); // REST "until": {}
        assertThat(UntilOffsets.listsNone(List.of(""))).isTrue(); // CLI --until ""
        assertThat(UntilOffsets.listsNone(List.of(" ", ""))).isTrue(); // CLI --until " ,"
        assertThat(UntilOffsets.listsNone(List.of("", "0:3"))).isFalse(); // the setting's validator refuses the blank
        assertThat(UntilOffsets.listsNone(List.of("0:0"))).isFalse(); // partition 0, nothing read: nothing to replay
    }
}
