package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which records a transaction sends in a redo, row by row. */
class RedoRangeTest {

    private static final TopicPartition TARGET_0 = new TopicPartition("copy.orders", 0);
    private static final TopicPartition DLQ_1 = new TopicPartition("dlq", 1);
    private static final RedoRange REDO = new RedoRange(15, Set.of(TARGET_0, DLQ_1));

    @Test
    void sendsARecordBelowTheEndToARedonePartition() {
        assertThat(REDO.sends(10, "copy.orders", 0)).isTrue();
    }

    @Test
    void leavesOutARecordBelowTheEndToAnotherPartitionWhichHoldsTheCommittedCopy() {
        assertThat(REDO.sends(14, "copy.orders", 1)).isFalse();
        assertThat(REDO.sends(14, "other", 0)).isFalse();
    }

    @Test
    void sendsARecordWithoutAPartitionBelowTheEndWhenItsTopicIsRedone() {
        assertThat(REDO.sends(12, "dlq", null)).as("a dead letter of a redone dead-letter topic").isTrue();
        assertThat(REDO.sends(12, "other", null)).isFalse();
    }

    @Test
    void sendsEveryRecordFromTheEndOn() {
        assertThat(REDO.sends(15, "copy.orders", 1)).isTrue();
        assertThat(REDO.sends(16, "other", null)).isTrue();
    }

    @Test
    void isCarriedByProgressRecordsOnlyBelowItsEnd() {
        assertThat(REDO.pendingAt(14)).isTrue();
        assertThat(REDO.pendingAt(15)).isFalse();
    }

    @Test
    void readsBackThePartitionsItWrote() {
        assertThat(RedoRange.parse("15", REDO.partitionsText())).contains(REDO);
        assertThat(REDO.partitionsText()).isEqualTo("copy.orders-0,dlq-1");
    }

    @Test
    void refusesAPartitionWithoutItsNumber() {
        assertThatThrownBy(() -> RedoRange.parse("15", "copy.orders")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("redo.partitions holds copy.orders, not a topic-partition");
    }

    private static final RedoRange FROM_OWN_STARTS = new RedoRange(20, Map.of(TARGET_0, 12L, DLQ_1, 5L));

    @Test
    void sendsToALostPartitionOnlyFromItsOwnStartOn() {
        assertThat(FROM_OWN_STARTS.sends(11, "copy.orders", 0)).as("committed there before the lost one").isFalse();
        assertThat(FROM_OWN_STARTS.sends(12, "copy.orders", 0)).isTrue();
        assertThat(FROM_OWN_STARTS.sends(5, "dlq", 1)).isTrue();
        assertThat(FROM_OWN_STARTS.sends(4, "dlq", 1)).isFalse();
    }

    @Test
    void sendsADeadLetterWithoutAPartitionWhenItIsPastTheStartOfAPartitionOfItsTopic() {
        assertThat(FROM_OWN_STARTS.sends(4, "dlq", null)).isFalse();
        assertThat(FROM_OWN_STARTS.sends(5, "dlq", null)).isTrue();
    }

    @Test
    void readsBackEachPartitionsStart() {
        assertThat(FROM_OWN_STARTS.partitionsText()).isEqualTo("copy.orders-0@12,dlq-1@5");
        assertThat(RedoRange.parse("20", FROM_OWN_STARTS.partitionsText())).contains(FROM_OWN_STARTS);
    }

    /** A review finding: a partition redone up to the progress and not lost again is not sent its redone part twice. */
    @Test
    void joinsALossDuringARedoRestartingTheLostPartitionsAtTheirFromAndTheOthersWhereTheRedoGotTo() {
        RedoRange joined = FROM_OWN_STARTS.joinedWith(25, 16, Map.of(TARGET_0, 14L, new TopicPartition("dlq", 0), 9L));

        assertThat(joined).isEqualTo(new RedoRange(25, Map.of(TARGET_0, 14L, DLQ_1, 16L,
                new TopicPartition("dlq", 0), 9L)));
    }
}
