package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the producer id of a transactional id's ongoing transaction has a transaction open, on the partitions that
 * transaction holds: what its abort will abort there, from the first offset given (see {@link RecentCommits}). Two
 * admin calls: {@code describeTransactions} (the coordinator's producer id and partitions of the ongoing transaction,
 * also those where nothing of it was appended, whose abort marker still aborts what is open there) and
 * {@code describeProducers} of those partitions.
 */
public final class OpenTransactionLook {

    private final ClusterAdmins admins;

    OpenTransactionLook(ClusterAdmins admins) {
        this.admins = admins;
    }

    /**
     * The first offset of the open transaction of {@code transactionalId}'s producer id on each partition of its
     * ongoing transaction that is among {@code among}; empty when it has no ongoing transaction. Both calls end by
     * {@code deadline}.
     *
     * @throws OpenTransactionLook.Failed when the target cluster did not answer, by then or at all
     */
    Map<TopicPartition, Long> openFrom(String transactionalId, Set<TopicPartition> among, Instant deadline) {
        TransactionDescription ongoing = await(admins.target().describeTransactions(List.of(transactionalId))
                .description(transactionalId), deadline);
        if (ongoing.state() != TransactionState.ONGOING) {
            return Map.of();
        }
        List<TopicPartition> held = ongoing.topicPartitions().stream().filter(among::contains).toList();
        if (held.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, PartitionProducerState> states = await(admins.target().describeProducers(held).all(), deadline);
        Map<TopicPartition, Long> openFrom = new HashMap<>();
        states.forEach((partition, state) -> state.activeProducers().stream()
                .filter(producer -> producer.producerId() == ongoing.producerId())
                .forEach(producer -> producer.currentTransactionStartOffset()
                        .ifPresent(first -> openFrom.put(partition, first))));
        return openFrom;
    }

    private static <T> T await(KafkaFuture<T> future, Instant deadline) {
        try {
            return future.get(Math.max(0, Duration.between(Instant.now(), deadline).toMillis()),
                    TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new Failed(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed(e);
        } catch (ExecutionException e) {
            throw new Failed(e.getCause());
        }
    }

    /** The look could not be made: the caller aborts as it would have, and says so. */
    public static final class Failed extends RuntimeException {
        Failed(Throwable cause) {
            super(cause);
        }
    }
}
