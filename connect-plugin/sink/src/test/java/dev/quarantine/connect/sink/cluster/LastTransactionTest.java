package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Test;

/** The rows of {@link LastTransaction}'s table: outcome and records' epochs by state and transaction version. */
class LastTransactionTest {

    private static final long ID = 42;

    @Test
    void anOngoingTransactionIsAbortedByTheNextInitTransactionsWithItsRecordsAtTheDescribedEpoch() {
        assertThat(last(TransactionState.ONGOING, 5, false)).contains(new LastTransaction(true, ID, (short) 5));
        assertThat(last(TransactionState.ONGOING, 5, true)).contains(new LastTransaction(true, ID, (short) 5));
    }

    @Test
    void anAbortHasItsRecordsAtTheDescribedEpochOrOneBelowAsEitherTheProducerOrTheCoordinatorEndedIt() {
        // version 1: the producer's own abort keeps e; the coordinator's (timeout, fence) completes at e + 1
        assertThat(last(TransactionState.COMPLETE_ABORT, 5, false))
                .contains(new LastTransaction(true, ID, (short) 4, (short) 5));
        assertThat(last(TransactionState.PREPARE_ABORT, 5, false))
                .contains(new LastTransaction(true, ID, (short) 4, (short) 5));
        // version 2: both bump once; no records can carry e before the next producer writes
        assertThat(last(TransactionState.COMPLETE_ABORT, 5, true))
                .contains(new LastTransaction(true, ID, (short) 4, (short) 5));
        assertThat(last(TransactionState.PREPARE_ABORT, 5, true))
                .contains(new LastTransaction(true, ID, (short) 4, (short) 5));
    }

    @Test
    void aVersion1AbortAtTheFirstEpochHasItsRecordsThere() {
        assertThat(last(TransactionState.COMPLETE_ABORT, 0, false)).contains(new LastTransaction(true, ID, (short) 0));
    }

    @Test
    void aCoordinatorAbortedTransactionOfAVersion1ProducerIsFoundByItsRecordsEpoch() {
        // the records were written at 5; the timeout's fence bumped to 6 and the abort completed there
        LastTransaction last = last(TransactionState.COMPLETE_ABORT, 6, false).orElseThrow();
        assertThat(last.wrote(ID, 5)).as("the records' epoch").isTrue();
        assertThat(last.wrote(ID, 4)).as("an earlier session's").isFalse();
        assertThat(last.wrote(ID + 1, 5)).as("another producer id").isFalse();
    }

    @Test
    void aFencedTransactionHasItsRecordsOneEpochBelowOnEitherVersion() {
        assertThat(last(TransactionState.PREPARE_EPOCH_FENCE, 5, false))
                .contains(new LastTransaction(true, ID, (short) 4));
        assertThat(last(TransactionState.PREPARE_EPOCH_FENCE, 5, true))
                .contains(new LastTransaction(true, ID, (short) 4));
    }

    @Test
    void aCommitIsNeverTakenForAnAbort() {
        assertThat(last(TransactionState.COMPLETE_COMMIT, 5, false)).contains(new LastTransaction(false, ID, (short) 5));
        assertThat(last(TransactionState.PREPARE_COMMIT, 5, true)).contains(new LastTransaction(false, ID, (short) 4));
        assertThat(last(TransactionState.COMPLETE_COMMIT, 5, true)).contains(new LastTransaction(false, ID, (short) 4));
    }

    @Test
    void aProducerIdRotatedWhenItsEpochsRanOutLeavesTheRecordsUnknown() {
        // version 2: the epoch bump past the last one gives the id a new producer id at epoch 0
        assertThat(last(TransactionState.COMPLETE_ABORT, 0, true)).isEmpty();
        assertThat(last(TransactionState.PREPARE_EPOCH_FENCE, 0, false)).isEmpty();
        assertThat(last(TransactionState.COMPLETE_COMMIT, 0, true)).isEmpty();
    }

    @Test
    void anIdWithoutATransactionHasNothingToLookFor() {
        assertThat(last(TransactionState.EMPTY, 5, true)).isEmpty();
    }

    @Test
    void anAbortFoundOpenOnTheProgressPartitionHasTheEpochItsRecordsCarryThere() {
        LastTransaction described = last(TransactionState.COMPLETE_ABORT, 5, false).orElseThrow();
        assertThat(described.foundOpenIn(progress(open(ID, 5)))).as("its producer's own abort")
                .contains(new LastTransaction(true, ID, (short) 5));
        assertThat(described.foundOpenIn(progress(open(ID, 4)))).as("the coordinator's abort")
                .contains(new LastTransaction(true, ID, (short) 4));
    }

    @Test
    void anAbortNotOpenOnTheProgressPartitionIsNotFoundThere() {
        LastTransaction described = last(TransactionState.COMPLETE_ABORT, 5, false).orElseThrow();
        assertThat(described.foundOpenIn(null)).as("no progress partition").isEmpty();
        assertThat(described.foundOpenIn(progress(open(ID, 3)))).as("an earlier epoch's").isEmpty();
        assertThat(described.foundOpenIn(progress(open(ID + 1, 5)))).as("another producer id's").isEmpty();
        assertThat(described.foundOpenIn(progress(new ProducerState(ID, 5, 0, 0L, OptionalInt.empty(),
                OptionalLong.empty())))).as("closed").isEmpty();
    }

    private static PartitionProducerState progress(ProducerState... producers) {
        return new PartitionProducerState(List.of(producers));
    }

    private static ProducerState open(long producerId, int epoch) {
        return new ProducerState(producerId, epoch, 0, 0L, OptionalInt.empty(), OptionalLong.of(42));
    }

    private static Optional<LastTransaction> last(TransactionState state, int epoch, boolean epochBumpedAtEnd) {
        return LastTransaction.of(new TransactionDescription(1, state, ID, epoch, 60_000, OptionalLong.empty(),
                Set.of()), epochBumpedAtEnd);
    }
}
