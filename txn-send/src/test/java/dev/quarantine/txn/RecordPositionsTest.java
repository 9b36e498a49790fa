package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecordPositionsTest {

    @Test
    void namesARecordAsTopicDashPartitionAtOffset() {
        assertThat(RecordPositions.of("orders", 3, 1042L)).isEqualTo("orders-3@1042");
    }

    @Test
    void keepsDashesInsideTheTopicName() {
        assertThat(RecordPositions.of("my-orders-v2", 0, 0L)).isEqualTo("my-orders-v2-0@0");
    }

    @Test
    void readsTheOffsetBackFromAPositionItWrote() {
        assertThat(RecordPositions.offsetOf(RecordPositions.of("my-orders-v2", 1, 1042L))).isEqualTo(1042L);
        assertThat(RecordPositions.offsetOf(RecordPositions.of("a@b", 0, 0L))).isZero();
    }

    @Test
    void refusesTextThatIsNotAPosition() {
        for (String text : new String[] {"orders-3", "@7", "orders-3@", "orders-3@-1", "orders-3@07", "orders-3@x"}) {
            org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                    .isThrownBy(() -> RecordPositions.offsetOf(text)).withMessageContaining(text);
        }
    }

    @Test
    void deadLetterDescribesItsSourceThroughTheSameFormatter() {
        DeadLetter letter = DeadLetter.of(null, null, null, new RuntimeException("boom")).source("in", 1, 7L);

        assertThat(letter.describe()).isEqualTo(RecordPositions.of("in", 1, 7L));
    }
}
