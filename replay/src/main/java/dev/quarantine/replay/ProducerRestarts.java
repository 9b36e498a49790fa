package dev.quarantine.replay;

import java.util.function.Supplier;

import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * What a failed transaction of a replay's producer means. A ProducerFencedException means a newer instance with the
 * same transactional.id did its own {@code initTransactions}: a real takeover. InvalidTxnStateException and
 * InvalidProducerEpochException do not say by themselves whether another instance exists:
 * <ul>
 * <li>Right after a replay resumed from an instance that died (kill -9) with a transaction open, its
 *     {@code initTransactions} had the coordinator end that transaction; while the end is still settling, the new
 *     producer's first transaction can fail so although no other instance exists.</li>
 * <li>After this producer committed, a lone replay's commit can still be answered InvalidTxnStateException: a CI
 *     run's coordinator met an EndTxn(COMMIT) at its current epoch while its last transaction was a completed commit
 *     ("state is COMPLETE_COMMIT, but received transaction marker result to send: COMMIT"), so none of the
 *     transaction's partitions had been added at that epoch. How the client came to send it was not found (not
 *     reproduced; ReplayOwnershipIT stages it).</li>
 * <li>A zombie's commit, after a newer instance's {@code initTransactions} fenced its open transaction, can meet
 *     InvalidTxnStateException too in Kafka 4.4 (the coordinator takes it for a retry of the epoch the fence bumped,
 *     cf. KAFKA-20785), and a zombie's sends meet InvalidProducerEpochException.</li>
 * </ul>
 * After a commit the decision is therefore the coordinator's and the progress topic's ({@link #ownership}, asked
 * only then): still this producer's when the transactional.id's last transaction is a completed commit (or a
 * completed abort, this producer having aborted since its last commit) and the replay's committed progress is the
 * one this producer committed last; taken when either shows another instance. A RESTART
 * is a new producer and a new {@code initTransactions}, resuming from the committed progress read again; restarts
 * count against the limit until the next commit.
 *
 * <table>
 * <caption>After a failed transaction</caption>
 * <tr><th>error (or a cause)</th><th>this producer committed since its init</th><th>ownership</th>
 *     <th>decision</th></tr>
 * <tr><td>ProducerFencedException</td><td>any</td><td>not asked</td><td>TAKEN_OVER</td></tr>
 * <tr><td>InvalidTxnStateException, InvalidProducerEpochException</td><td>no</td><td>not asked</td>
 *     <td>RESTART, or GIVE_UP with no restarts left</td></tr>
 * <tr><td>InvalidTxnStateException, InvalidProducerEpochException</td><td>yes</td><td>STILL_OURS</td>
 *     <td>RESTART, or GIVE_UP with no restarts left</td></tr>
 * <tr><td>InvalidTxnStateException, InvalidProducerEpochException</td><td>yes</td><td>TAKEN</td>
 *     <td>TAKEN_OVER</td></tr>
 * <tr><td>InvalidTxnStateException, InvalidProducerEpochException</td><td>yes</td><td>UNKNOWN (could not be
 *     read)</td><td>OTHER</td></tr>
 * <tr><td>any other from commitTransaction, not retriable (a CI run: the broker's UNKNOWN_SERVER_ERROR to an
 *     EndTxn that met a newer instance's fence in progress, "transition to ONGOING while it already a pending state
 *     PREPARE_EPOCH_FENCE")</td>
 *     <td>yes</td><td>TAKEN</td><td>TAKEN_OVER</td></tr>
 * <tr><td>any other from commitTransaction, not retriable</td><td>yes</td><td>STILL_OURS, UNKNOWN</td>
 *     <td>OTHER</td></tr>
 * <tr><td>any other: retriable (a commit may still be under way), not from commitTransaction (the writer's own
 *     checks: the range limit, a progress record too large), or before a commit</td><td>any</td>
 *     <td>not asked</td><td>OTHER (the caller's usual handling)</td></tr>
 * </table>
 */
final class ProducerRestarts {

    enum Decision { RESTART, TAKEN_OVER, GIVE_UP, OTHER }

    /** Whose the replay's transactional.id is, as the coordinator and the progress topic show it after a failure. */
    enum Ownership { STILL_OURS, TAKEN, UNKNOWN }

    private final int maxRestarts;
    private int restarts;

    ProducerRestarts(int maxRestarts) {
        this.maxRestarts = maxRestarts;
    }

    /**
     * Decides, counting a RESTART against the limit; {@code ownership} is asked only after a commit since init.
     *
     * @param commitRefused whether the error came from {@code commitTransaction} itself (not from the writer's own
     *                      checks before it, such as the range limit or a progress record too large)
     */
    Decision after(Throwable error, boolean committedSinceInit, boolean commitRefused, Supplier<Ownership> ownership) {
        if (has(error, ProducerFencedException.class)) {
            return Decision.TAKEN_OVER;
        }
        if (!has(error, InvalidTxnStateException.class) && !has(error, InvalidProducerEpochException.class)) {
            // an error that is not one of a transaction's ordinary outcomes (the broker's "unexpected error" when an
            // EndTxn meets a newer instance's fence in progress): a takeover when the coordinator shows one
            boolean unexplained = commitRefused && !has(error, RetriableException.class) && committedSinceInit;
            return unexplained && ownership.get() == Ownership.TAKEN ? Decision.TAKEN_OVER : Decision.OTHER;
        }
        if (committedSinceInit) {
            Ownership owner = ownership.get();
            if (owner == Ownership.TAKEN) {
                return Decision.TAKEN_OVER;
            }
            if (owner == Ownership.UNKNOWN) {
                return Decision.OTHER;
            }
        }
        if (restarts >= maxRestarts) {
            return Decision.GIVE_UP;
        }
        restarts++;
        return Decision.RESTART;
    }

    /**
     * Whose the transactional.id is after this producer committed and then failed: {@code state} as its coordinator
     * holds it, whether this producer aborted a transaction since its last commit, and whether the replay's committed
     * progress is still the one this producer committed last.
     *
     * <table>
     * <caption>Ownership</caption>
     * <tr><th>state</th><th>aborted since the last commit</th><th>committed progress</th><th>ownership</th></tr>
     * <tr><td>COMPLETE_COMMIT</td><td>any</td><td>this producer's last</td><td>STILL_OURS</td></tr>
     * <tr><td>COMPLETE_ABORT</td><td>yes</td><td>this producer's last</td><td>STILL_OURS</td></tr>
     * <tr><td>COMPLETE_ABORT</td><td>no (a newer instance's fence, or the coordinator's own timeout)</td><td>any</td>
     *     <td>TAKEN</td></tr>
     * <tr><td>EMPTY (a newer instance's init), ONGOING, PREPARE_*, other</td><td>any</td><td>any</td>
     *     <td>TAKEN</td></tr>
     * <tr><td>any</td><td>any</td><td>another (a newer instance committed)</td><td>TAKEN</td></tr>
     * </table>
     */
    static Ownership ownership(TransactionState state, boolean abortedSinceCommit, boolean progressIsOurs) {
        boolean lastIsOurs = state == TransactionState.COMPLETE_COMMIT
                || state == TransactionState.COMPLETE_ABORT && abortedSinceCommit;
        return lastIsOurs && progressIsOurs ? Ownership.STILL_OURS : Ownership.TAKEN;
    }

    /** A transaction committed: restarts count from zero again. */
    void committed() {
        restarts = 0;
    }

    int restarts() {
        return restarts;
    }

    private static boolean has(Throwable error, Class<? extends Throwable> type) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }
}
