package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.SendErrors;

/**
 * Aborts the transactions an earlier producer of a partition's transactional id left open ("hanging", KIP-664) on
 * the topics its new writer is about to write, before the writer writes them.
 *
 * <p>Why: a broker killed and restarted can load its transaction state before its metadata lists the transaction's
 * partitions; the coordinator then skips their markers as if the topics were deleted and completes the transaction
 * anyway (the broker logs "Couldn't find leader endpoint for partitions ... likely deleted already"). Its records
 * stay open in the target and DLQ partitions and its progress stays a pending, invisible offset commit, so the new
 * writer reads the progress from before it and writes the batch again; the new writer's next commit marker, which
 * applies to the producer id whatever the epoch, would make the forgotten records visible next to the rewritten
 * ones: duplicates. Aborting them first loses nothing (their progress never became visible) and keeps the copy once.
 *
 * <p>Hanging is Kafka's {@code kafka-transactions.sh find-hanging} rule narrowed to our own id: an open transaction
 * of the id's producer id, with an epoch below the id's current one, on a partition the coordinator does not list
 * for the id's current transaction. The id is described before the partitions, so a transaction that a newer owner
 * begins meanwhile has the current epoch or a later one and is left alone.
 */
final class HangingTransactions implements HangingTransactionCheck {

    private static final Logger log = LoggerFactory.getLogger(HangingTransactions.class);

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
        if (SendErrors.isTransient(cause) && !(cause instanceof UnknownTopicOrPartitionException)) {
            return new RetriableException("Could not " + what + " (" + cause + "), to find transactions left"
                    + " hanging by an earlier producer of " + transactionalId + "; the batch is delivered again",
                    cause);
        }
        return new ConnectException("Could not " + what + ": " + cause + ". Before a partition's new producer"
                + " writes, the task aborts transactions its earlier producers left hanging (markers lost by a"
                + " broker restart)" + (cause instanceof AuthorizationException ? "; check the ACLs of "
                + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "*: Read on the target and dead-letter topics,"
                + " Describe on the transactional ids, and Alter on the cluster to abort one" : ""), cause);
    }
}
