package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    /** The id's last transaction was aborted; its records have epoch 1. */
    private static final LastTransaction ABORTED = new LastTransaction(true, OURS, (short) 1);

    @Test
    void anOpenTransactionOfTheAbortedLastTransactionIsHangingAndAbortedWithItsOwnEpoch() {
        assertThat(hanging(ABORTED, Map.of(TARGET, states(open(OURS, 1, OptionalInt.empty())))))
                .containsExactly(new AbortTransactionSpec(TARGET, OURS, (short) 1, 0));
    }

    @Test
    void anOpenTransactionOfAnEarlierEpochThanTheAbortedOnesIsLeftAloneForItMayHaveCommitted() {
        // transaction.version 2: every transaction ends with an epoch bump, so epoch 0 is an earlier transaction
        assertThat(hanging(ABORTED, Map.of(TARGET, states(open(OURS, 0, OptionalInt.empty()))))).isEmpty();
    }

    @Test
    void nothingIsHangingWhenTheLastTransactionCommitted() {
        LastTransaction committed = new LastTransaction(false, OURS, (short) 1);
        assertThat(hanging(committed, Map.of(TARGET, states(open(OURS, 1, OptionalInt.empty()))))).isEmpty();
    }

    @Test
    void keepsTheCoordinatorEpochTheOpenTransactionWasLastMarkedWith() {
        assertThat(hanging(ABORTED, Map.of(DLQ, states(open(OURS, 1, OptionalInt.of(5))))))
                .containsExactly(new AbortTransactionSpec(DLQ, OURS, (short) 1, 5));
    }

    @Test
    void aProducerOfOursWithoutAnOpenTransactionIsNotHanging() {
        ProducerState closed = new ProducerState(OURS, 1, 10, 0L, OptionalInt.of(4), OptionalLong.empty());
        assertThat(hanging(ABORTED, Map.of(TARGET, states(closed)))).isEmpty();
    }

    @Test
    void anotherProducerIdsOpenTransactionIsLeftToItsOwnCoordinator() {
        assertThat(hanging(ABORTED, Map.of(TARGET, states(open(OURS + 1, 1, OptionalInt.empty()))))).isEmpty();
    }

    @Test
    void aTransactionANewerOwnerOfTheIdBeganMeanwhileIsNotHanging() {
        assertThat(hanging(ABORTED, Map.of(TARGET, states(open(OURS, 3, OptionalInt.empty())),
                DLQ, states(open(OURS, 4, OptionalInt.empty()))))).isEmpty();
    }

    @Test
    void aPartitionTheCoordinatorListsForTheOngoingTransactionIsNotHanging() {
        TransactionDescription ongoing = current(TransactionState.ONGOING, 3, Set.of(TARGET));
        assertThat(HangingTransactions.hanging(ABORTED, ongoing, Map.of(TARGET, states(open(OURS, 1,
                        OptionalInt.empty())), DLQ, states(open(OURS, 1, OptionalInt.empty()))), Optional.empty(),
                true))
                .containsExactly(new AbortTransactionSpec(DLQ, OURS, (short) 1, 0));
    }

    @Test
    void withTransactionVersion1AlsoWhenTheAbortedTransactionIsNotOpenOnTheProgressPartition() {
        // one epoch for a whole producer session: the open transaction could be an earlier, committed one, which
        // rule V then finds aborted and redoes; left alone, the next commit marker made the aborted records visible
        // (HangingTransactionVersion1IT.writesEachRecordOnceAfterARestartWhenAnAbortOfItsIdWasLeftHangingOnTheTarget)
        Map<TopicPartition, PartitionProducerState> target = Map.of(TARGET, states(open(OURS, 1, OptionalInt.empty())));
        assertThat(HangingTransactions.hanging(ABORTED, CURRENT, target, Optional.empty(), false))
                .containsExactly(new AbortTransactionSpec(TARGET, OURS, (short) 1, 0));
        assertThat(HangingTransactions.hanging(ABORTED, CURRENT, target, Optional.of(ABORTED), false))
                .containsExactly(new AbortTransactionSpec(TARGET, OURS, (short) 1, 0));
    }

    @Test
    void withTransactionVersion1AnOpenTransactionOfTheSessionBeforeIsAnEarlierCommitAndLeftAlone() {
        // aborted by its producer at epoch 2, found open on the progress partition at 2: the epoch below, which a
        // coordinator-aborted transaction's records would carry, is the previous session's (committed, left open)
        LastTransaction described = new LastTransaction(true, OURS, (short) 1, (short) 2);
        Optional<LastTransaction> onProgress = Optional.of(new LastTransaction(true, OURS, (short) 2));
        Map<TopicPartition, PartitionProducerState> states = Map.of(
                TARGET, states(open(OURS, 1, OptionalInt.empty())),
                DLQ, states(open(OURS, 2, OptionalInt.empty())));
        assertThat(HangingTransactions.hanging(described, CURRENT, states, onProgress, false))
                .containsExactly(new AbortTransactionSpec(DLQ, OURS, (short) 2, 0));
    }

    @Test
    void aTransactionItsCoordinatorAbortedIsFoundOneEpochBelowTheDescribedOneWhereTheProgressPartitionSaysSo() {
        // version 1, timed out at epoch 1: the fence bumped to 2, the records (progress one too) carry 1
        LastTransaction described = new LastTransaction(true, OURS, (short) 1, (short) 2);
        Optional<LastTransaction> onProgress = Optional.of(new LastTransaction(true, OURS, (short) 1));
        assertThat(HangingTransactions.hanging(described, CURRENT, Map.of(TARGET, states(open(OURS, 1,
                OptionalInt.empty()))), onProgress, false))
                .containsExactly(new AbortTransactionSpec(TARGET, OURS, (short) 1, 0));
    }

    @Test
    void withTransactionVersion2BothDescribedEpochsAreTakenWhenTheProgressPartitionDoesNotSay() {
        LastTransaction described = new LastTransaction(true, OURS, (short) 1, (short) 2);
        assertThat(HangingTransactions.hanging(described, CURRENT, Map.of(TARGET, states(open(OURS, 2,
                OptionalInt.empty()))), Optional.empty(), true))
                .containsExactly(new AbortTransactionSpec(TARGET, OURS, (short) 2, 0));
        assertThat(HangingTransactions.hanging(described, CURRENT, Map.of(TARGET, states(open(OURS, 2,
                OptionalInt.empty()))), Optional.of(new LastTransaction(true, OURS, (short) 1)), true))
                .as("the progress partition says 1").isEmpty();
    }

    private static List<AbortTransactionSpec> hanging(LastTransaction last,
                                                      Map<TopicPartition, PartitionProducerState> states) {
        return HangingTransactions.hanging(last, CURRENT, states, Optional.empty(), true);
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
