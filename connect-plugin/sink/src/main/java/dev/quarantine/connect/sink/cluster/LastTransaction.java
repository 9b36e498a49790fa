package dev.quarantine.connect.sink.cluster;

import java.util.Optional;

import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * A transactional id's last transaction as its coordinator describes it: whether it ended (or ends) in an abort, and
 * the producer id and epochs its records may carry, which an open transaction must carry to be that one.
 *
 * <p>The epoch of its records follows from the state and from who ended it (the coordinator's code, Kafka 4.4):
 * <ul>
 * <li>a producer ending its own transaction bumps the epoch at the prepare step only with KIP-890's transaction
 * version 2, which a producer uses when the cluster's {@code transaction.version} is 2 or more and its client is 4.0
 * or newer (a 3.9 client ends with version 1 on any cluster);</li>
 * <li>the coordinator aborting a transaction itself (its timeout, or a new producer's initTransactions fencing it)
 * bumps the epoch once, on either version: version 1 fences with a bump and ends without one, version 2 ends with
 * its bump.</li>
 * </ul>
 * An abort described with epoch e therefore has its records at e (a version-1 producer's own abort) or e - 1 (the
 * coordinator's abort, or a version-2 producer's own), which the description cannot tell apart: both are taken. With
 * version 2 records at e belong to the id's next transaction, which would be described instead (ONGOING), so taking
 * both costs nothing there; it covers a last transaction ended by an older client, as after a worker upgrade. A
 * commit is only ever a producer's own. So "an epoch below the current one" is not "aborted": with version 2 every
 * committed transaction before the last has one too. When the bump ran out of epochs, the coordinator gave the id a
 * new producer id and the records' one is not described: unknown.
 *
 * <table>
 * <caption>The last transaction, from its description (epoch e)</caption>
 * <tr><th>state</th><th>ended in</th><th>records' epoch, version 1</th><th>version 2</th></tr>
 * <tr><td>ONGOING</td><td>abort (the next initTransactions aborts it)</td><td>e</td><td>e</td></tr>
 * <tr><td>PREPARE_ABORT, COMPLETE_ABORT</td><td>abort</td><td>e - 1 or e</td><td>e - 1 (or e)</td></tr>
 * <tr><td>PREPARE_EPOCH_FENCE</td><td>abort</td><td>e - 1</td><td>e - 1</td></tr>
 * <tr><td>PREPARE_COMMIT, COMPLETE_COMMIT</td><td>commit</td><td>e</td><td>e - 1</td></tr>
 * <tr><td>EMPTY, anything else, an unknown id</td><td colspan="3">no transaction to look for</td></tr>
 * <tr><td colspan="2">an epoch below 0; with version 2 an abort at epoch 0</td><td colspan="2">unknown (the
 * producer id was rotated)</td></tr>
 * </table>
 *
 * <p>Where the description leaves two epochs, the progress partition tells which: every transaction of ours writes
 * its progress record there, so while the last transaction is open there the producer's epoch on that partition is
 * the one its records carry ({@link #foundOpenIn}). Taking both would confuse, with version 1, the records of the
 * session before (one epoch below) with the aborted ones: a committed transaction of that session left open on a
 * target partition (its markers skipped, its progress completed since) would be aborted, and its records lost.
 *
 * <p>With version 1 a producer writes every transaction of its session with one epoch, so an open transaction with the
 * records' epoch can also be an earlier one of that session; {@link HangingTransactions} narrows that case further.
 */
public record LastTransaction(boolean aborted, long producerId, short lowestEpoch, short highestEpoch) {

    /** A last transaction whose records carry exactly {@code recordsEpoch}. */
    public LastTransaction(boolean aborted, long producerId, short recordsEpoch) {
        this(aborted, producerId, recordsEpoch, recordsEpoch);
    }

    /**
     * The last transaction of {@code described}, empty when there is none to look for or its records are unknown;
     * {@code epochBumpedAtEnd}: whether a producer's own commit or abort bumps the epoch (transaction version 2).
     */
    static Optional<LastTransaction> of(TransactionDescription described, boolean epochBumpedAtEnd) {
        int epoch = described.producerEpoch();
        return switch (described.state()) {
            case ONGOING -> of(true, described, epoch, epoch);
            case PREPARE_EPOCH_FENCE -> of(true, described, epoch - 1, epoch - 1);
            case PREPARE_ABORT, COMPLETE_ABORT -> epochBumpedAtEnd && epoch == 0 ? Optional.empty()
                    : of(true, described, Math.max(0, epoch - 1), epoch);
            case PREPARE_COMMIT, COMPLETE_COMMIT -> {
                int records = epochBumpedAtEnd ? epoch - 1 : epoch;
                yield of(false, described, records, records);
            }
            default -> Optional.empty();
        };
    }

    private static Optional<LastTransaction> of(boolean aborted, TransactionDescription described, int lowest,
                                                int highest) {
        return lowest < 0 ? Optional.empty()
                : Optional.of(new LastTransaction(aborted, described.producerId(), (short) lowest, (short) highest));
    }

    /**
     * This transaction as found open in the partition of {@code state} (the progress partition, which each of our
     * transactions writes): with its records' epoch there as its only one; empty when it is not open there (or
     * {@code state} is null).
     */
    Optional<LastTransaction> foundOpenIn(PartitionProducerState state) {
        if (state == null) {
            return Optional.empty();
        }
        return state.activeProducers().stream()
                .filter(producer -> wrote(producer.producerId(), producer.producerEpoch())
                        && producer.currentTransactionStartOffset().isPresent())
                .findFirst()
                .map(producer -> new LastTransaction(aborted, producerId, (short) producer.producerEpoch()));
    }

    /** Whether an open transaction of {@code producerId} with {@code epoch} is this one's records. */
    public boolean wrote(long producerId, int epoch) {
        return this.producerId == producerId && lowestEpoch <= epoch && epoch <= highestEpoch;
    }
}
