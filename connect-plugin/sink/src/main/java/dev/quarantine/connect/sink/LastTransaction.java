package dev.quarantine.connect.sink;

import java.util.Optional;

import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * A transactional id's last transaction as its coordinator describes it: whether it ended (or ends) in an abort, and
 * the producer id and epoch its records were written with, which an open transaction must carry to be that one.
 *
 * <p>The epoch of its records follows from the state and the cluster's {@code transaction.version}: from version 2
 * on (KIP-890) the coordinator bumps the epoch when a transaction ends, at its prepare step, so a transaction that is
 * ending or ended is described with the epoch after its records'; a fence (a new producer's initTransactions while it
 * was ongoing) bumps it on any version. So "an epoch below the current one" is not "aborted": with version 2 every
 * committed transaction before the last has one too. When the bump ran out of epochs, the coordinator gave the id a
 * new producer id and the records' one is not described: unknown.
 *
 * <table>
 * <caption>The last transaction, from its description (epoch e)</caption>
 * <tr><th>state</th><th>ended in</th><th>records' epoch, version 1</th><th>version 2</th></tr>
 * <tr><td>ONGOING</td><td>abort (the next initTransactions aborts it)</td><td>e</td><td>e</td></tr>
 * <tr><td>PREPARE_ABORT, COMPLETE_ABORT</td><td>abort</td><td>e</td><td>e - 1</td></tr>
 * <tr><td>PREPARE_EPOCH_FENCE</td><td>abort</td><td>e - 1</td><td>e - 1</td></tr>
 * <tr><td>PREPARE_COMMIT, COMPLETE_COMMIT</td><td>commit</td><td>e</td><td>e - 1</td></tr>
 * <tr><td>EMPTY, anything else, an unknown id</td><td colspan="3">no transaction to look for</td></tr>
 * <tr><td colspan="2">a records' epoch below 0</td><td colspan="2">unknown (the producer id was rotated)</td></tr>
 * </table>
 *
 * <p>With version 1 a producer writes every transaction of its session with one epoch, so an open transaction with the
 * records' epoch can also be an earlier one of that session; {@link HangingTransactions} narrows that case further.
 */
record LastTransaction(boolean aborted, long producerId, short recordsEpoch) {

    /** The last transaction of {@code described}, empty when there is none to look for or its records are unknown. */
    static Optional<LastTransaction> of(TransactionDescription described, boolean epochBumpedAtEnd) {
        TransactionState state = described.state();
        int bump;
        boolean aborted;
        switch (state) {
            case ONGOING -> {
                bump = 0;
                aborted = true;
            }
            case PREPARE_ABORT, COMPLETE_ABORT -> {
                bump = epochBumpedAtEnd ? 1 : 0;
                aborted = true;
            }
            case PREPARE_EPOCH_FENCE -> {
                bump = 1;
                aborted = true;
            }
            case PREPARE_COMMIT, COMPLETE_COMMIT -> {
                bump = epochBumpedAtEnd ? 1 : 0;
                aborted = false;
            }
            default -> {
                return Optional.empty();
            }
        }
        int epoch = described.producerEpoch() - bump;
        return epoch < 0 ? Optional.empty()
                : Optional.of(new LastTransaction(aborted, described.producerId(), (short) epoch));
    }

    /** Whether an open transaction of {@code producerId} with {@code epoch} is this one's records. */
    boolean wrote(long producerId, int epoch) {
        return this.producerId == producerId && recordsEpoch == epoch;
    }
}
