package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which open transactions on the partitions a writer is about to write are hanging, row by row. */
class HangingTransactionsTest {

    private static final long OURS = 7000;
    private static final TopicPartition TARGET = new TopicPartition("copy.orders", 1);
    private static final TopicPartition DLQ = new TopicPartition("dlq", 0);

    /** The id after the new producer's initTransactions: epoch 3, no transaction under way. */
    private static final TransactionDescription CURRENT = current(TransactionState.COMPLETE_COMMIT, 3, Set.of());

    @Test
    void anOpenTransactionOfOurProducerIdWithAnEarlierEpochIsHangingAndAbortedWithItsOwnEpoch() {
        assertThat(HangingTransactions.hanging(CURRENT, Map.of(TARGET, states(open(OURS, 1, OptionalInt.empty())))))
                .containsExactly(new AbortTransactionSpec(TARGET, OURS, (short) 1, 0));
    }

    @Test
    void keepsTheCoordinatorEpochTheOpenTransactionWasLastMarkedWith() {
        assertThat(HangingTransactions.hanging(CURRENT, Map.of(DLQ, states(open(OURS, 2, OptionalInt.of(5))))))
                .containsExactly(new AbortTransactionSpec(DLQ, OURS, (short) 2, 5));
    }

    @Test
    void aProducerOfOursWithoutAnOpenTransactionIsNotHanging() {
        ProducerState closed = new ProducerState(OURS, 1, 10, 0L, OptionalInt.of(4), OptionalLong.empty());
        assertThat(HangingTransactions.hanging(CURRENT, Map.of(TARGET, states(closed)))).isEmpty();
    }

    @Test
    void anotherProducerIdsOpenTransactionIsLeftToItsOwnCoordinator() {
        assertThat(HangingTransactions.hanging(CURRENT, Map.of(TARGET, states(open(OURS + 1, 0,
                OptionalInt.empty()))))).isEmpty();
    }

    @Test
    void aTransactionANewerOwnerOfTheIdBeganMeanwhileIsNotHanging() {
        assertThat(HangingTransactions.hanging(CURRENT, Map.of(TARGET, states(open(OURS, 3, OptionalInt.empty())),
                DLQ, states(open(OURS, 4, OptionalInt.empty()))))).isEmpty();
    }

    @Test
    void aPartitionTheCoordinatorListsForTheOngoingTransactionIsNotHanging() {
        TransactionDescription ongoing = current(TransactionState.ONGOING, 3, Set.of(TARGET));
        assertThat(HangingTransactions.hanging(ongoing, Map.of(TARGET, states(open(OURS, 2, OptionalInt.empty())),
                DLQ, states(open(OURS, 2, OptionalInt.empty())))))
                .containsExactly(new AbortTransactionSpec(DLQ, OURS, (short) 2, 0));
    }

    private static TransactionDescription current(TransactionState state, int epoch, Set<TopicPartition> partitions) {
        return new TransactionDescription(1, state, OURS, epoch, 60_000, OptionalLong.empty(), partitions);
    }

    private static ProducerState open(long producerId, int epoch, OptionalInt coordinatorEpoch) {
        return new ProducerState(producerId, epoch, 0, 0L, coordinatorEpoch, OptionalLong.of(42));
    }

    private static PartitionProducerState states(ProducerState... producers) {
        return new PartitionProducerState(List.of(producers));
    }
}
