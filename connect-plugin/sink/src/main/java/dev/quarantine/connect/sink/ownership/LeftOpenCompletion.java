package dev.quarantine.connect.sink.ownership;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.DescribeTransactionsResult;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.SettledWriters;
import dev.quarantine.connect.sink.progress.CommitCompletion;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * A read of a progress-topic partition held back by a transaction of one of this connector's ids that a broker left
 * open (its markers skipped there, design 2.7): completed by a commit of the same producer id, from a short-lived
 * producer of that id ({@code initTransactions}, one record under the key {@code <id>/completed} with no value, commit),
 * whose marker ends the id's open range there. A task holding that id is fenced by it once and initialises again.
 *
 * <p>Why complete and never abort: on partition 1 a claim made visible costs at most one more fence (design 2.7); on
 * partition 0 a progress record made visible names, in its {@code written} lines, where its transaction's records
 * went, and rule V checks them before anyone writes its partition (a transaction that was really aborted reads aborted
 * there and is redone), while aborting a committed one would lose its progress. Only a range of an id whose
 * transaction is settled (not ongoing, not prepared) and alike before and after the look at the partition, at the
 * id's current epoch or below, is completed: a writer's transaction under way is waited for.
 */
public final class LeftOpenCompletion {

    private static final Logger log = LoggerFactory.getLogger(LeftOpenCompletion.class);

    private final Admin admin;
    private final String prefix;
    private final String progressTopic;
    private final Function<String, Producer<byte[], byte[]>> producers;

    /** {@code producers}: a new, not initialised transactional producer of an id (the target producer's settings). */
    public LeftOpenCompletion(Admin admin, String prefix, String progressTopic,
                              Function<String, Producer<byte[], byte[]>> producers) {
        this.admin = admin;
        this.prefix = prefix;
        this.progressTopic = progressTopic;
        this.producers = producers;
    }

    /**
     * Completes what ids of this connector left open on partition {@code partition} of the progress topic; answers
     * the ids completed.
     *
     * @throws RetriableException when the cluster did not answer within {@code bound}, or a completion failed
     */
    public Set<String> complete(int partition, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            Attempt attempt = attempt(partition, bound);
            if (!attempt.waiting() || System.nanoTime() - deadline > 0) {
                return attempt.completed();
            }
            try {
                Thread.sleep(100); // an id's transaction under way (a fence's abort, say): its markers are coming
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return attempt.completed();
            }
        }
    }

    /** What one look completed, and whether an id of the connector holding a range there was not settled yet. */
    private record Attempt(Set<String> completed, boolean waiting) {
    }

    private Attempt attempt(int partition, Duration bound) {
        TopicPartition tp = new TopicPartition(progressTopic, partition);
        Map<Long, ProducerState> open = open(tp, bound);
        if (open.isEmpty()) {
            return new Attempt(Set.of(), false);
        }
        ListTransactionsOptions options = new ListTransactionsOptions().filterProducerIds(open.keySet());
        Set<String> ids = new TreeSet<>();
        for (TransactionListing listing : await(admin.listTransactions(options).all(), "list the transactions of "
                + open.keySet(), bound)) {
            if (OwnershipRecord.isId(prefix, listing.transactionalId())) {
                ids.add(listing.transactionalId());
            }
        }
        if (ids.isEmpty()) {
            return new Attempt(Set.of(), false);
        }
        Map<String, TransactionDescription> before = describe(ids, bound);
        Map<Long, ProducerState> still = open(tp, bound);
        Map<String, TransactionDescription> after = describe(ids, bound);
        Set<String> completed = new TreeSet<>();
        for (String id : leftOpen(before, after, still)) {
            completeWith(id, tp);
            completed.add(id);
        }
        boolean waiting = after.entrySet().stream().anyMatch(e -> !completed.contains(e.getKey())
                && still.containsKey(e.getValue().producerId()));
        return new Attempt(completed, waiting);
    }

    /**
     * The ids of {@code after} described settled and alike in {@code before}, with a range of their producer id open
     * in {@code open} at their current epoch or below: with no transaction of the id under way (a new one registers
     * with the coordinator before it writes), such a range is one the coordinator completed (under
     * {@code transaction.version} 1 at the session's epoch itself).
     */
    static Set<String> leftOpen(Map<String, TransactionDescription> before, Map<String, TransactionDescription> after,
                                Map<Long, ProducerState> open) {
        Set<String> ids = new TreeSet<>();
        after.forEach((id, now) -> {
            TransactionDescription was = before.get(id);
            ProducerState range = open.get(now.producerId());
            if (SettledWriters.alike(was, now) && SettledWriters.settled(now) && range != null
                    && range.producerEpoch() <= now.producerEpoch()) {
                ids.add(id);
            }
        });
        return ids;
    }

    private void completeWith(String id, TopicPartition tp) {
        log.warn("A committed or aborted transaction of {} is still open on {} (a broker skipped its markers there) and"
                + " holds back every read of it: completing it with a commit of a producer of {} (which fences that"
                + " id once)", id, tp, id);
        try (Producer<byte[], byte[]> producer = producers.apply(id)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(tp.topic(), tp.partition(),
                    (id + CommitCompletion.KEY_SUFFIX).getBytes(StandardCharsets.UTF_8), null));
            producer.commitTransaction();
        } catch (RuntimeException e) {
            throw new RetriableException("Could not complete the transaction of " + id + " left open on " + tp
                    + ": " + e, e);
        }
    }

    private Map<Long, ProducerState> open(TopicPartition tp, Duration bound) {
        Map<TopicPartition, PartitionProducerState> states = await(admin.describeProducers(List.of(tp)).all(),
                "describe the producers of " + tp, bound);
        Map<Long, ProducerState> open = new HashMap<>();
        PartitionProducerState state = states.get(tp);
        if (state != null) {
            state.activeProducers().stream().filter(p -> p.currentTransactionStartOffset().isPresent())
                    .forEach(p -> open.put(p.producerId(), p));
        }
        return open;
    }

    private Map<String, TransactionDescription> describe(Set<String> ids, Duration bound) {
        DescribeTransactionsResult result = admin.describeTransactions(new HashSet<>(ids));
        Map<String, TransactionDescription> described = new HashMap<>();
        for (String id : ids) {
            try {
                described.put(id, await(result.description(id), "describe " + id, bound));
            } catch (RetriableException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.TransactionalIdNotFoundException)) {
                    throw e;
                }
            }
        }
        return described;
    }

    private static <T> T await(KafkaFuture<T> future, String what, Duration bound) {
        try {
            return future.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetriableException("Interrupted while trying to " + what, e);
        } catch (ExecutionException e) {
            throw new RetriableException("Could not " + what + ": " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new RetriableException("Could not " + what + " within " + bound.toMillis() + " ms", e);
        }
    }
}
