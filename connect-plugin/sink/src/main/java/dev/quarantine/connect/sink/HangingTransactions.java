package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.DescribeTransactionsResult;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.SendErrors;

/**
 * Aborts the records an aborted transaction of a partition's transactional id left open ("hanging", KIP-664) on the
 * topics its writer is about to write again, before it writes them.
 *
 * <p>Why: a broker restarting can load its transaction state before its metadata lists a transaction's partitions;
 * its coordinator then skips their markers as if the topics were deleted and completes the transaction anyway (the
 * broker logs "Couldn't find leader endpoint for partitions ... likely deleted already"). When that transaction was
 * being aborted (ours, after a commit that timed out while the broker went down, or the one a new producer's
 * initTransactions aborts), its records stay open in the target and DLQ partitions while the batch is written again
 * from the progress, which the abort left where it was; the producer's next commit marker, which applies to its
 * producer id whatever the epoch, would then make the aborted records visible next to their new copies: duplicates.
 * Aborting them first is what the coordinator meant to do. A transaction left hanging after a commit is left alone:
 * its progress went forward with it, and the producer's next commit marker completes it.
 *
 * <p>Hanging is Kafka's {@code kafka-transactions.sh find-hanging} rule narrowed to our own id: an open transaction
 * of the id's producer id, with an epoch below the id's current one, on a partition the coordinator does not list
 * for the id's current transaction. The id is described before the partitions, so a transaction that a newer owner
 * begins meanwhile has the current epoch or a later one and is left alone.
 *
 * <p>Whether the id's last transaction was aborted must be read before the new producer's initTransactions, which
 * forgets it. A task opening many partitions reads it for all their ids together, before creating any of their
 * producers: {@value #IDS_PER_DESCRIBE} ids per describeTransactions call (the admin client asks each coordinator
 * about its ids in one request), instead of one call per partition. The answer is as old as the partitions' opening
 * (seconds, instead of the moment before each initTransactions): a previous owner of an id that is still writing
 * (a zombie, which initTransactions fences) may end its transaction in between, as it could before between the
 * call and initTransactions.
 */
final class HangingTransactions implements HangingTransactionCheck {

    private static final Logger log = LoggerFactory.getLogger(HangingTransactions.class);

    /** The states in which the id's last transaction was, or is being, aborted. */
    private static final Set<TransactionState> ABORTING = Set.of(TransactionState.ONGOING,
            TransactionState.PREPARE_ABORT, TransactionState.COMPLETE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

    /** At most this many transactional ids per describeTransactions call. */
    static final int IDS_PER_DESCRIBE = 500;

    private final ClusterAdmins admins;
    private final Duration timeout;

    HangingTransactions(ClusterAdmins admins, Duration timeout) {
        this.admins = admins;
        this.timeout = timeout;
    }

    /** The hanging transactions among {@code states}, given the id's current transaction {@code current}. */
    static List<AbortTransactionSpec> hanging(TransactionDescription current,
                                              Map<TopicPartition, PartitionProducerState> states) {
        List<AbortTransactionSpec> hanging = new ArrayList<>();
        states.forEach((partition, state) -> {
            for (ProducerState producer : state.activeProducers()) {
                if (producer.producerId() == current.producerId()
                        && producer.producerEpoch() < current.producerEpoch()
                        && producer.currentTransactionStartOffset().isPresent()
                        && !current.topicPartitions().contains(partition)) {
                    hanging.add(new AbortTransactionSpec(partition, producer.producerId(),
                            (short) producer.producerEpoch(), producer.coordinatorEpoch().orElse(0)));
                }
            }
        });
        return hanging;
    }

    /** Whether the id's last transaction ended, or ends, in an abort (an unknown id has none). */
    @Override
    public boolean lastTransactionAborted(String transactionalId) {
        return lastTransactionsAborted(List.of(transactionalId)).contains(transactionalId);
    }

    /**
     * The ids whose last transaction ended, or ends, in an abort: all described at once, in calls of at most
     * {@value #IDS_PER_DESCRIBE} ids, within one timeout.
     *
     * @throws RetriableException when the target cluster did not answer in time
     * @throws ConnectException   when it refused, naming the ACLs to check
     */
    @Override
    public Set<String> lastTransactionsAborted(Collection<String> transactionalIds) {
        Map<String, KafkaFuture<TransactionDescription>> described = new LinkedHashMap<>();
        List<String> ids = List.copyOf(transactionalIds);
        for (int from = 0; from < ids.size(); from += IDS_PER_DESCRIBE) {
            List<String> call = ids.subList(from, Math.min(ids.size(), from + IDS_PER_DESCRIBE));
            DescribeTransactionsResult result = admins.target().describeTransactions(call);
            call.forEach(id -> described.put(id, result.description(id)));
        }
        settle(described);
        Set<String> aborted = new HashSet<>();
        described.forEach((id, description) -> {
            if (aborted(id, description)) {
                aborted.add(id);
            }
        });
        return aborted;
    }

    private boolean aborted(String transactionalId, KafkaFuture<TransactionDescription> description) {
        try {
            return ABORTING.contains(await(description, "describe transactional id " + transactionalId,
                    transactionalId).state());
        } catch (ConnectException e) {
            if (e.getCause() instanceof TransactionalIdNotFoundException) {
                return false;
            }
            throw e;
        }
    }

    /** Waits until every description has an answer, whichever, within the timeout. */
    private void settle(Map<String, KafkaFuture<TransactionDescription>> described) {
        CompletableFuture<?>[] answers = described.values().stream()
                .map(f -> f.toCompletionStage().toCompletableFuture().exceptionally(e -> null))
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(answers).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new RetriableException("Could not describe the last transactions of " + described.size()
                    + " transactional ids (" + described.keySet().iterator().next() + ", ...) within "
                    + timeout.toMillis() + " ms, before their partitions' producers are initialized; trying again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while describing the last transactions of "
                    + described.size() + " transactional ids", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Answers that failed were turned into none", e);
        }
    }

    /**
     * Aborts the transactions of {@code transactionalId} left hanging on the partitions of {@code topics}.
     *
     * @throws RetriableException when the target cluster did not answer in time (the batch is delivered again)
     * @throws ConnectException   when it refused, naming the ACLs to check
     */
    @Override
    public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
        Admin admin = admins.target();
        TransactionDescription current = await(admin.describeTransactions(List.of(transactionalId))
                .description(transactionalId), "describe transactional id " + transactionalId, transactionalId);
        List<TopicPartition> partitions = partitions(admin, topics, transactionalId);
        Map<TopicPartition, PartitionProducerState> states = await(admin.describeProducers(partitions).all(),
                "describe the producers of " + topics, transactionalId);
        for (AbortTransactionSpec spec : hanging(current, states)) {
            log.warn("Aborting a transaction of {} left hanging (its markers were never written) before writing"
                    + " there again: {}", transactionalId, spec);
            await(admin.abortTransaction(spec).all(), "abort the hanging transaction " + spec, transactionalId);
        }
    }

    /** The partitions of those {@code topics} that exist (a missing one holds no transaction). */
    private List<TopicPartition> partitions(Admin admin, Collection<String> topics, String transactionalId) {
        List<TopicPartition> partitions = new ArrayList<>();
        admin.describeTopics(topics).topicNameValues().forEach((topic, described) -> {
            try {
                await(described, "describe topic " + topic, transactionalId).partitions()
                        .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            } catch (ConnectException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        });
        return partitions;
    }

    private <T> T await(KafkaFuture<T> future, String what, String transactionalId) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new RetriableException("Could not " + what + " within " + timeout.toMillis() + " ms, to find"
                    + " transactions left hanging by an earlier producer of " + transactionalId + "; the batch is"
                    + " delivered again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while looking for hanging transactions of " + transactionalId, e);
        } catch (ExecutionException e) {
            throw failure(what, transactionalId, e.getCause());
        }
    }

    private static ConnectException failure(String what, String transactionalId, Throwable cause) {
        if (SendErrors.isTransient(cause) && !(cause instanceof UnknownTopicOrPartitionException)
                && !(cause instanceof TransactionalIdNotFoundException)) {
            return new RetriableException("Could not " + what + " (" + cause + "), to find transactions left"
                    + " hanging by an earlier producer of " + transactionalId + "; the batch is delivered again",
                    cause);
        }
        return new ConnectException("Could not " + what + ": " + cause + ". Before a partition's producer"
                + " writes again after an abort, the task aborts what the abort left open (markers skipped by a"
                + " restarting broker)" + (cause instanceof AuthorizationException ? "; check the ACLs of "
                + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "*: Read on the target, dead-letter and progress"
                + " topics, Describe on the transactional ids, and Alter on the cluster to abort one" : ""), cause);
    }
}
