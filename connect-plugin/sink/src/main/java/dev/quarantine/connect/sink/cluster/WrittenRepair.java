package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.DescribeTransactionsResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.LeftOpenRanges.Held;
import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Look;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Verdict;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.txn.SendErrors;

/**
 * Rule V's check as the running sink asks it (docs/design/sink-ownership.md 2.7.1, step 3): before a slot writes
 * source partitions again after a claim (a), a re-initialisation (b) or an abort of its own (c), the {@code written}
 * lines of their latest committed progress are looked at on the target cluster ({@link WrittenProbe}, all partitions in
 * one look) and each partition's {@link WrittenCheck} verdict answered.
 *
 * <p>A line held back by a range of its writer's producer id left open (a broker skipped the markers of the commit
 * there, 2.7): after the checker's init or fence no transaction of that id is ongoing below the epoch the coordinator
 * describes now, so an open range of that producer id at a lower epoch that starts at or before the line's
 * {@code first} can only be such a leftover. It is aborted ({@code Admin.abortTransaction} at the epoch its records
 * carry, as the coordinator meant to end it; its records are then redone from the progress) and the line looked at
 * again: aborted, so {@link WrittenCheck.Redo}. A line held back by anything else (a live transaction of another slot on
 * a shared dead-letter partition) stays {@link WrittenCheck.Wait}: looked at again at the next put.
 */
public final class WrittenRepair implements WrittenChecks {

    private static final Logger log = LoggerFactory.getLogger(WrittenRepair.class);

    private final WrittenProbe probe;
    private final Admin admin;
    private final Duration timeout;

    /**
     * @param probe   the reader of the target cluster, closed with this
     * @param admin   an admin client of the target cluster (describe, abort), not closed here
     * @param timeout the bound of one check ({@code progress.read.timeout.ms})
     */
    public WrittenRepair(WrittenProbe probe, Admin admin, Duration timeout) {
        this.probe = probe;
        this.admin = admin;
        this.timeout = timeout;
    }

    /**
     * The verdict for each source partition of {@code progress} with {@code written} lines (those without are not
     * answered: nothing to check). Ranges left open by a line's writer are aborted first, then looked at again.
     *
     * @throws RetriableException when the target cluster did not answer in time
     * @throws ConnectException   when it refused (an ACL): naming what to grant
     */
    @Override
    public Map<TopicPartition, Verdict> check(Map<TopicPartition, ProgressRecord> progress) {
        Map<TopicPartition, Verdict> verdicts = look(progress);
        Map<TopicPartition, ProgressRecord> waiting = new LinkedHashMap<>();
        verdicts.forEach((source, verdict) -> {
            if (verdict instanceof WrittenCheck.Wait) {
                waiting.put(source, progress.get(source));
            }
        });
        if (!waiting.isEmpty() && abortLeftOpen(waiting, verdicts)) {
            verdicts.putAll(look(waiting));
        }
        return verdicts;
    }

    /**
     * Whether every line of {@code progress} still reads visible (or was deleted by retention): after an abort of the
     * slot's own, before it writes those partitions again (c). A line held back (the abort's markers still on their
     * way) is looked at again until {@code bound}; still held back then, or anything else: false, and the slot
     * re-initialises, after which {@link #check} decides.
     */
    @Override
    public boolean stillVisible(Map<TopicPartition, ProgressRecord> progress, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            Map<TopicPartition, Verdict> verdicts = look(progress);
            if (verdicts.values().stream().allMatch(v -> v instanceof WrittenCheck.Clean)) {
                return true;
            }
            if (!verdicts.values().stream().allMatch(v -> v instanceof WrittenCheck.Clean
                    || v instanceof WrittenCheck.Wait) || System.nanoTime() - deadline > 0) {
                verdicts.forEach((source, verdict) -> {
                    if (!(verdict instanceof WrittenCheck.Clean)) {
                        log.warn("After an abort of its own, the last committed transaction of {} reads {} on the"
                                + " target: the slot initialises again and checks it before writing", source, verdict);
                    }
                });
                return false;
            }
            sleep(50);
        }
    }

    private Map<TopicPartition, Verdict> look(Map<TopicPartition, ProgressRecord> progress) {
        Set<TopicPartition> partitions = new HashSet<>();
        progress.values().forEach(record -> partitions.addAll(record.written().keySet()));
        Map<String, Uuid> ids = new HashMap<>();
        Set<TopicPartition> gone = gone(partitions, ids);
        Map<TopicPartition, Set<Long>> firsts = new HashMap<>();
        progress.values().forEach(record -> record.written().forEach((tp, line) -> {
            if (!goneWithItsTopic(tp, line, gone, ids)) {
                firsts.computeIfAbsent(tp, k -> new HashSet<>()).add(line.first());
            }
        }));
        Map<TopicPartition, Map<Long, AtFirst>> found;
        try {
            found = probe.lookAll(firsts, timeout);
        } catch (org.apache.kafka.common.KafkaException e) {
            throw failure("read " + firsts.keySet() + " read_committed", e);
        }
        Map<TopicPartition, Verdict> verdicts = new LinkedHashMap<>();
        progress.forEach((source, record) -> {
            if (record.written().isEmpty()) {
                return;
            }
            Map<TopicPartition, Look> looks = new HashMap<>();
            record.written().forEach((tp, line) -> looks.put(tp, Look.of(goneWithItsTopic(tp, line, gone, ids)
                    ? AtFirst.DELETED : found.get(tp).get(line.first()))));
            verdicts.put(source, WrittenCheck.decide(record, looks));
        });
        return verdicts;
    }

    /**
     * Whether {@code line}'s records went with their topic: {@code tp} is {@code gone}, or the line names another id
     * than its topic's now ({@code ids}: deleted and created again, the new topic's offsets say nothing of them).
     */
    private static boolean goneWithItsTopic(TopicPartition tp, Written line, Set<TopicPartition> gone,
                                            Map<String, Uuid> ids) {
        return gone.contains(tp) || line.ofAnotherTopicThan(ids.get(tp.topic()));
    }

    /**
     * Of {@code partitions}, those whose topic no longer exists or no longer has them (deleted by an operator); the id
     * of each topic that exists goes into {@code ids}.
     */
    private Set<TopicPartition> gone(Set<TopicPartition> partitions, Map<String, Uuid> ids) {
        Set<String> topics = new HashSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        Map<String, Integer> counts = new HashMap<>();
        admin.describeTopics(topics).topicNameValues().forEach((topic, described) -> {
            try {
                TopicDescription description = AdminWait.await(described, timeout, "describe topic " + topic);
                counts.put(topic, description.partitions().size());
                ids.put(topic, description.topicId());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)) {
                    throw failure("describe topic " + topic, e.getCause());
                }
            }
        });
        Set<TopicPartition> gone = new HashSet<>();
        partitions.forEach(tp -> {
            Integer count = counts.get(tp.topic());
            if (count == null || tp.partition() >= count) {
                gone.add(tp);
            }
        });
        return gone;
    }


    /**
     * Aborts, on the partitions {@code waiting}'s lines are held back on, the open ranges that their writers' producer
     * ids left below the epochs described now and that hold the line's {@code first}. Answers whether it aborted any.
     */
    private boolean abortLeftOpen(Map<TopicPartition, ProgressRecord> waiting, Map<TopicPartition, Verdict> verdicts) {
        Set<String> holders = new HashSet<>();
        Map<TopicPartition, List<Held>> held = new HashMap<>();
        waiting.forEach((source, record) -> {
            if (record.holder().isEmpty()) {
                return;
            }
            String id = record.holder().get().id();
            holders.add(id);
            for (TopicPartition tp : ((WrittenCheck.Wait) verdicts.get(source)).heldBack()) {
                held.computeIfAbsent(tp, k -> new ArrayList<>()).add(new Held(id, record.written().get(tp)));
            }
        });
        if (held.isEmpty()) {
            return false;
        }
        // described before and after the producers: a writer that ended or began a transaction in between (its
        // marker in flight, its epoch moved on) is not settled, and nothing of it is aborted this time
        Map<String, TransactionDescription> before = describe(holders);
        Map<TopicPartition, PartitionProducerState> states = await(admin.describeProducers(held.keySet()).all(),
                "describe the producers of " + held.keySet()).orElse(Map.of());
        Map<String, TransactionDescription> described = describe(holders);
        described.entrySet().removeIf(e -> !SettledWriters.alike(before.get(e.getKey()), e.getValue()));
        List<AbortTransactionSpec> aborts = LeftOpenRanges.toAbort(held, described, states);
        for (AbortTransactionSpec spec : aborts) {
            log.warn("A committed transaction left open (its markers were never written) holds back {}: aborting it"
                    + " ({}) so that its records there are written again from the committed progress", spec
                    .topicPartition(), spec);
            await(admin.abortTransaction(spec).all(), "abort the transaction left open " + spec);
        }
        return !aborts.isEmpty();
    }

    private Map<String, TransactionDescription> describe(Set<String> ids) {
        Map<String, TransactionDescription> described = new HashMap<>();
        DescribeTransactionsResult asked = admin.describeTransactions(ids);
        ids.forEach(id -> await(asked.description(id), "describe transactional id " + id).ifPresent(d ->
                described.put(id, d)));
        return described;
    }

    private <T> Optional<T> await(KafkaFuture<T> future, String what) {
        try {
            return Optional.ofNullable(AdminWait.await(future, timeout, what));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TransactionalIdNotFoundException) {
                return Optional.empty();
            }
            throw failure(what, e.getCause());
        }
    }

    private static ConnectException failure(String what, Throwable cause) {
        if (SendErrors.isTransient(cause)) {
            return new RetriableException("Could not " + what + " (" + cause + "), to check that the last committed"
                    + " transactions of the partitions opened are visible on the target; checked again at the next"
                    + " put", cause);
        }
        return new ConnectException("Could not " + what + ": " + cause + ". Before writing a partition again the"
                + " task checks that its last committed transaction is visible on the target (rule V)"
                + (cause instanceof AuthorizationException ? "; check the ACLs of "
                + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "*: Read on the target and dead-letter topics,"
                + " Describe on the transactional ids, and Alter on the cluster to abort a transaction left open"
                : ""), cause);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while checking what an abort left", e);
        }
    }

    @Override
    public void close() {
        probe.close();
    }
}
