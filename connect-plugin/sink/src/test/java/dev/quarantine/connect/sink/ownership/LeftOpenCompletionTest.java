package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Test;

/** Which ids' ranges open on a progress partition are completed ({@link LeftOpenCompletion#leftOpen}), row by row. */
class LeftOpenCompletionTest {

    private static final String ID = "sink:task#1.0";
    private static final long PRODUCER_ID = 9;
    private static final Map<Long, ProducerState> OPEN_AT_3 = Map.of(PRODUCER_ID, new ProducerState(PRODUCER_ID, 3, 0,
            0L, OptionalInt.of(1), OptionalLong.of(40)));

    @Test
    void completesARangeBelowTheEpochOfAnIdDescribedSettledAndAlikeBeforeAndAfter() {
        assertThat(leftOpenWhenDescribedAlike(TransactionState.COMPLETE_COMMIT, 4)).containsExactly(ID);
    }

    @Test
    void waitsForAnIdWhoseTransactionIsUnderWay() {
        for (TransactionState live : Set.of(TransactionState.ONGOING, TransactionState.PREPARE_COMMIT,
                TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE)) {
            assertThat(leftOpenWhenDescribedAlike(live, 4)).as(live.toString()).isEmpty();
        }
    }

    @Test
    void waitsForAnIdThatMovedOnDuringTheLook() {
        assertThat(LeftOpenCompletion.leftOpen(Map.of(ID, described(TransactionState.COMPLETE_COMMIT, 4)),
                Map.of(ID, described(TransactionState.COMPLETE_COMMIT, 5)), OPEN_AT_3)).isEmpty();
    }

    /** transaction.version 1: every transaction of a session carries its epoch, the one left open too. */
    @Test
    void completesARangeAtTheCurrentEpochOfAnIdDescribedSettled() {
        assertThat(leftOpenWhenDescribedAlike(TransactionState.COMPLETE_COMMIT, 3)).containsExactly(ID);
    }

    @Test
    void leavesARangeAboveTheIdsCurrentEpochAlone() {
        assertThat(leftOpenWhenDescribedAlike(TransactionState.EMPTY, 2)).isEmpty();
    }

    @Test
    void completesNothingOfAnIdWithNoRangeOpenThere() {
        Map<String, TransactionDescription> settled = Map.of(ID, described(TransactionState.COMPLETE_ABORT, 4));

        assertThat(LeftOpenCompletion.leftOpen(settled, settled, Map.of())).isEmpty();
    }

    /**
     * The ids {@link LeftOpenCompletion#leftOpen} completes when {@link #ID} is described alike before and after the
     * look, {@code state} at {@code epoch}, with a range open at epoch 3 ({@link #OPEN_AT_3}).
     */
    private static Set<String> leftOpenWhenDescribedAlike(TransactionState state, int epoch) {
        Map<String, TransactionDescription> alike = Map.of(ID, described(state, epoch));
        return LeftOpenCompletion.leftOpen(alike, alike, OPEN_AT_3);
    }

    private static TransactionDescription described(TransactionState state, int epoch) {
        return new TransactionDescription(1, state, PRODUCER_ID, epoch, 60_000, OptionalLong.empty(), Set.of());
    }
}
