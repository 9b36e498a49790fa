package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.RedoRange;

/** {@link CarriedRedo}'s table, row by row: what the partition's next producer redoes after reading the progress. */
class CarriedRedoTest {

    private static final Uuid TOPIC_ID = Uuid.randomUuid();
    private static final TopicPartition X = new TopicPartition("copy.orders", 0);
    private static final TopicPartition Y = new TopicPartition("copy.orders", 1);
    private static final TopicPartition DLQ = new TopicPartition("dlq", 0);
    private final CarriedRedo carried = new CarriedRedo(10, new RedoRange(15, Set.of(X)));

    @Test
    void redoesItsRangeWhenTheProgressIsWhereTheFailingBatchBegan() {
        assertThat(carried.after(progress(10, 15, Optional.empty()), Set.of()))
                .contains(new RedoRange(15, Set.of(X)));
    }

    @Test
    void joinsThePartitionsTheOpenFoundACommitLeftOpenOn() {
        assertThat(carried.after(progress(10, 15, Optional.empty()), Set.of(DLQ)))
                .contains(new RedoRange(15, Set.of(X, DLQ)));
    }

    @Test
    void joinsARedoTheProgressIsStillIn() {
        assertThat(carried.after(progress(10, 15, Optional.of(new RedoRange(18, Set.of(Y)))), Set.of()))
                .contains(new RedoRange(18, Set.of(X, Y)));
    }

    @Test
    void redoesNothingWhenAnotherWriterMovedTheProgressPastItsEnd() {
        assertThat(carried.after(progress(15, 20, Optional.empty()), Set.of(X))).isEmpty();
    }

    @Test
    void joinsASecondRedoCarriedForThePartitionFromTheEarlierStartToTheLaterEnd() {
        assertThat(carried.joinedWith(new CarriedRedo(12, new RedoRange(20, Set.of(DLQ)))))
                .isEqualTo(new CarriedRedo(10, new RedoRange(20, Set.of(X, DLQ))));
    }

    @Test
    void namesItsRecordsAndPartitions() {
        assertThat(carried.describe()).isEqualTo("source offsets 10 to 14 on copy.orders-0");
    }

    private static ProgressRecord progress(long from, long next, Optional<RedoRange> redo) {
        return new ProgressRecord(from, next, TOPIC_ID, Optional.empty(), Map.of(), redo);
    }
}
