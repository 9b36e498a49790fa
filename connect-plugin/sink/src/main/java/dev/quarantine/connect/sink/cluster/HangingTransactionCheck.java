package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.progress.CommitCompletion;
import dev.quarantine.connect.sink.progress.RedoRange;

/**
 * Finds what an aborted transaction of a partition's producer left open: {@link HangingTransactions} in the task, a
 * recording fake in the writer's unit tests.
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

    /**
     * The target and dead-letter partitions of {@code topics} where the id's committed last transaction, or the
     * commit {@code named} by a completion standing in the progress ({@link CommitCompletion}), is left open (or, in
     * {@code redo}'s partitions, any transaction of its producer id; by default: none).
     */
    default Set<TopicPartition> committedLeftOpen(String transactionalId, Collection<String> topics,
                                                  Optional<RedoRange> redo, Optional<LastTransaction> named) {
        return Set.of();
    }

    /**
     * Before {@link #committedLeftOpen} is asked for each of the ids of {@code topicsById} (the ids opened together
     * that have progress, each with the topics it will ask about): what it needs, described for all of them at once
     * (by default nothing).
     */
    default void lookForCommitsLeftOpen(Map<String, ? extends Collection<String>> topicsById) {
    }

    /** Aborts what {@link #committedLeftOpen} found on {@code partitions}, once the intent to redo is committed. */
    default void abortForRedo(String transactionalId, Set<TopicPartition> partitions) {
    }

    /**
     * The first offset of the open transaction of the producer id of {@code transactionalId}'s ongoing transaction on
     * each partition of {@code among} that transaction holds ({@link OpenTransactionLook}; by default: none), its
     * waits ending by {@code deadline}.
     *
     * @throws OpenTransactionLook.Failed when the target cluster did not answer by then
     */
    default Map<TopicPartition, Long> openFrom(String transactionalId, Set<TopicPartition> among, Instant deadline) {
        return Map.of();
    }

    /**
     * How long the look before a running writer's abort ({@link #openFrom}) and, when it found commits held open,
     * the repair after the abort ({@link #abortBeforeWriting(String, Collection, Instant)}) may wait together: one
     * budget, counted in {@link ConfigRules#writeBound} (by default the admin client's default request timeout).
     */
    default Duration lookBudget() {
        return Duration.ofMillis(ClusterAdmins.DEFAULT_REQUEST_TIMEOUT_MS);
    }

    /** As {@link #abortBeforeWriting(String, Collection)}, its waits ending by {@code deadline} (by default: no end). */
    default void abortBeforeWriting(String transactionalId, Collection<String> topics, Instant deadline) {
        abortBeforeWriting(transactionalId, topics);
    }

    /** The id's writer ended a transaction of its own, which is the id's last from now on (by default: nothing). */
    default void forget(String transactionalId) {
    }
}
