package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.ProducerRestarts.Decision;
import dev.quarantine.replay.ProducerRestarts.Ownership;

/** One test per row of {@link ProducerRestarts}' table. */
class ProducerRestartsTest {

    private final AtomicInteger asked = new AtomicInteger();

    @Test
    void aProducerFencedExceptionIsATakeoverWhetherOrNotThisProducerCommittedAndOwnershipIsNotAsked() {
        ProducerRestarts restarts = new ProducerRestarts(3);

        assertThat(restarts.after(new ProducerFencedException("newer epoch"), false, true, owner(Ownership.STILL_OURS)))
                .isEqualTo(Decision.TAKEN_OVER);
        assertThat(restarts.after(new KafkaException(new ProducerFencedException("x")), true, true,
                owner(Ownership.STILL_OURS))).isEqualTo(Decision.TAKEN_OVER);
        assertThat(asked).hasValue(0);
    }

    @Test
    void anInvalidTxnStateBeforeTheFirstCommitRestartsTheProducerUpToTheLimitWithoutAskingOwnership() {
        ProducerRestarts restarts = new ProducerRestarts(2);

        assertThat(restarts.after(new InvalidTxnStateException("ending"), false, true, owner(Ownership.TAKEN)))
                .isEqualTo(Decision.RESTART);
        assertThat(restarts.after(new KafkaException(new InvalidProducerEpochException("bumped")), false, true,
                owner(Ownership.TAKEN))).isEqualTo(Decision.RESTART);
        assertThat(restarts.after(new InvalidTxnStateException("ending"), false, true, owner(Ownership.TAKEN)))
                .isEqualTo(Decision.GIVE_UP);
        assertThat(asked).hasValue(0);
    }

    /** The CI failure: a lone replay's commit answered InvalidTxnStateException after earlier commits. */
    @Test
    void anInvalidTxnStateAfterACommitWhileTheTransactionalIdIsStillOursRestartsUpToTheLimit() {
        ProducerRestarts restarts = new ProducerRestarts(1);

        assertThat(restarts.after(new InvalidTxnStateException("COMPLETE_COMMIT"), true, true,
                owner(Ownership.STILL_OURS)))
                .isEqualTo(Decision.RESTART);
        assertThat(restarts.after(new InvalidTxnStateException("COMPLETE_COMMIT"), true, true,
                owner(Ownership.STILL_OURS)))
                .isEqualTo(Decision.GIVE_UP);
        assertThat(asked).hasValue(2);
    }

    @Test
    void anInvalidTxnStateOrEpochAfterACommitIsATakeoverWhenAnotherInstanceTookTheTransactionalId() {
        ProducerRestarts restarts = new ProducerRestarts(3);

        assertThat(restarts.after(new InvalidTxnStateException("zombie"), true, true, owner(Ownership.TAKEN)))
                .isEqualTo(Decision.TAKEN_OVER);
        assertThat(restarts.after(new KafkaException(new InvalidProducerEpochException("old")), true, true,
                owner(Ownership.TAKEN))).isEqualTo(Decision.TAKEN_OVER);
        assertThat(restarts.restarts()).isZero();
    }

    @Test
    void anInvalidTxnStateAfterACommitIsLeftToTheCallerWhenOwnershipCannotBeRead() {
        assertThat(new ProducerRestarts(3).after(new InvalidTxnStateException("x"), true, true,
                owner(Ownership.UNKNOWN)))
                .isEqualTo(Decision.OTHER);
    }

    @Test
    void aCommitStartsTheCountOfRestartsAgain() {
        ProducerRestarts restarts = new ProducerRestarts(1);
        assertThat(restarts.after(new InvalidTxnStateException("x"), false, true, owner(Ownership.STILL_OURS)))
                .isEqualTo(Decision.RESTART);

        restarts.committed();

        assertThat(restarts.after(new InvalidTxnStateException("x"), true, true, owner(Ownership.STILL_OURS)))
                .isEqualTo(Decision.RESTART);
        assertThat(restarts.restarts()).isOne();
    }

    @Test
    void aRetriableErrorIsLeftToTheCallerWithoutAskingOwnership() {
        assertThat(new ProducerRestarts(3).after(new TimeoutException("slow"), true, true, owner(Ownership.TAKEN)))
                .isEqualTo(Decision.OTHER);
        assertThat(asked).hasValue(0);
    }

    @Test
    void anUnexplainedErrorBeforeAnyCommitIsLeftToTheCallerWithoutAskingOwnership() {
        assertThat(new ProducerRestarts(3).after(new KafkaException("Unhandled error in EndTxnResponse"), false, true,
                owner(Ownership.TAKEN))).isEqualTo(Decision.OTHER);
        assertThat(asked).hasValue(0);
    }

    /**
     * A CI run: a second instance's initTransactions was fencing the first when the first's EndTxn came; the broker
     * answered UNKNOWN_SERVER_ERROR (its state machine refused "ONGOING while PREPARE_EPOCH_FENCE" pending) and the
     * first stopped with that error instead of saying it was taken over.
     */
    @Test
    void anUnexplainedErrorAfterACommitIsATakeoverWhenTheCoordinatorShowsAnotherInstance() {
        assertThat(new ProducerRestarts(3).after(new KafkaException("Unhandled error in EndTxnResponse"), true, true,
                owner(Ownership.TAKEN))).isEqualTo(Decision.TAKEN_OVER);
        assertThat(asked).hasValue(1);
    }

    /** A review finding: the writer's own range-limit check fails after its own abort, which the coordinator may
     * still show as PREPARE_ABORT: never a takeover, and ownership is not asked. */
    @Test
    void anErrorOfTheWritersOwnChecksIsLeftToTheCallerWithoutAskingOwnership() {
        assertThat(new ProducerRestarts(3).after(new ConfigException("replay.written.ranges.max", 10, "passed"), true,
                false, owner(Ownership.TAKEN))).isEqualTo(Decision.OTHER);
        assertThat(asked).hasValue(0);
    }

    @Test
    void anUnexplainedErrorAfterACommitIsLeftToTheCallerWhileTheTransactionalIdIsStillOursOrUnknown() {
        ProducerRestarts restarts = new ProducerRestarts(3);
        assertThat(restarts.after(new KafkaException("Unhandled error"), true, true, owner(Ownership.STILL_OURS)))
                .isEqualTo(Decision.OTHER);
        assertThat(restarts.after(new KafkaException("Unhandled error"), true, true, owner(Ownership.UNKNOWN)))
                .isEqualTo(Decision.OTHER);
        assertThat(restarts.restarts()).as("never restarted for an error it cannot explain").isZero();
    }

    @Test
    void theTransactionalIdIsStillOursWhenItsLastTransactionIsOurCompletedCommitAndTheProgressOurs() {
        assertThat(ProducerRestarts.ownership(TransactionState.COMPLETE_COMMIT, false, true))
                .isEqualTo(Ownership.STILL_OURS);
        assertThat(ProducerRestarts.ownership(TransactionState.COMPLETE_COMMIT, true, true))
                .isEqualTo(Ownership.STILL_OURS);
    }

    @Test
    void aCompletedAbortIsOursOnlyWhenThisProducerAbortedSinceItsLastCommit() {
        assertThat(ProducerRestarts.ownership(TransactionState.COMPLETE_ABORT, true, true))
                .isEqualTo(Ownership.STILL_OURS);
        assertThat(ProducerRestarts.ownership(TransactionState.COMPLETE_ABORT, false, true))
                .as("a newer instance's fence, or the coordinator's own timeout").isEqualTo(Ownership.TAKEN);
    }

    @Test
    void anyOtherStateOrAnotherCommittedProgressMeansAnotherInstanceTookTheTransactionalId() {
        for (TransactionState state : List.of(TransactionState.EMPTY, TransactionState.ONGOING,
                TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE,
                TransactionState.UNKNOWN)) {
            assertThat(ProducerRestarts.ownership(state, true, true)).as(state.toString()).isEqualTo(Ownership.TAKEN);
        }
        assertThat(ProducerRestarts.ownership(TransactionState.COMPLETE_COMMIT, false, false))
                .as("a newer instance committed").isEqualTo(Ownership.TAKEN);
        assertThat(ProducerRestarts.ownership(TransactionState.COMPLETE_ABORT, true, false))
                .isEqualTo(Ownership.TAKEN);
    }

    private Supplier<Ownership> owner(Ownership ownership) {
        return () -> {
            asked.incrementAndGet();
            return ownership;
        };
    }
}
