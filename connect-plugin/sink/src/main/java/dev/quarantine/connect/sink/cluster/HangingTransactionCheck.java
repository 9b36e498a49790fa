package dev.quarantine.connect.sink.cluster;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds and repairs what the last transaction of a transactional id left open where a broker skipped its markers,
 * around that id's {@code initTransactions}: {@link HangingTransactions} for a slot's producer (the write package's
 * {@code HangingRepair}) and for Connect's offsets API ({@code ProgressReset}); a fake in tests.
 */
public interface HangingTransactionCheck {

    /**
     * Whether the last transaction of {@code transactionalId} ended, or is ending, in an abort; asked before a new
     * producer's initTransactions, which forgets it.
     */
    boolean lastTransactionAborted(String transactionalId);

    /**
     * Those of {@code transactionalIds} whose last transaction ended, or is ending, in an abort: what
     * {@link #lastTransactionAborted} says of each, asked together before any of their producers' initTransactions
     * (by default one at a time).
     */
    default Set<String> lastTransactionsAborted(Collection<String> transactionalIds) {
        return transactionalIds.stream().filter(this::lastTransactionAborted).collect(Collectors.toSet());
    }

    /**
     * What {@link #lastTransactionsAborted} asks, with each id's failure its own: the ids whose last transaction was
     * aborted, and those whose answer failed, each with its failure (by default: the answers of
     * {@link #lastTransactionsAborted}, none failing alone).
     */
    default LastTransactions describeLastTransactions(Collection<String> transactionalIds) {
        return new LastTransactions(lastTransactionsAborted(transactionalIds), Map.of());
    }

    /** The answer of {@link #describeLastTransactions}. */
    record LastTransactions(Set<String> aborted, Map<String, RuntimeException> failed) {

        public LastTransactions {
            aborted = Set.copyOf(aborted);
            failed = Map.copyOf(failed);
        }
    }

    /** Aborts what earlier transactions of {@code transactionalId} left hanging on the partitions of {@code topics}. */
    void abortBeforeWriting(String transactionalId, Collection<String> topics);

    /**
     * The last transaction of {@code transactionalId}, with the epoch its records carry there, when it committed but
     * is still open on the progress partition, where the writer's own next commit there completes it (by default:
     * never).
     */
    default Optional<LastTransaction> lastCommitLeftOpen(String transactionalId) {
        return Optional.empty();
    }

    /** The id's writer ended a transaction of its own, which is the id's last from now on (by default: nothing). */
    default void forget(String transactionalId) {
    }
}
