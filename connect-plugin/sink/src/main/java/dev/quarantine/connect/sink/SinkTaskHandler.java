package dev.quarantine.connect.sink;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.TargetTopics;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.write.CommitTrigger;
import dev.quarantine.connect.sink.write.Coordinates;
import dev.quarantine.connect.sink.write.PartitionWriter;
import dev.quarantine.connect.sink.write.RunningRedo;
import dev.quarantine.connect.sink.write.WriterErrors;
import dev.quarantine.connect.sink.write.WriterFactory;

/**
 * What a {@link TransactionalKafkaSinkTask} does, without Connect: one {@link PartitionWriter} per assigned source
 * partition, created when the partition is opened (its producer's initTransactions fences the previous owner and
 * completes its last transaction), registered once its progress is read back from the target cluster, the worker's
 * consumer sought to that progress, and reported back in {@link #preCommit()} so Connect's consumer lag stays
 * meaningful. A put adds its records to their writers' waiting records; what waits is written once it is due
 * ({@link CommitTrigger}), so one transaction per partition holds the records of several puts.
 *
 * <p>Ownership is never given up silently: a writer whose producer was fenced (or broken) is closed and its
 * partition sought back to its committed progress; it is re-established (see {@link Reestablisher}) once the worker
 * delivers records of it again, after a poll, as long as Connect still assigns the partition to this task. A
 * partition that truly moved is closed by the rebalance that moved it. A put that asked for a seek never throws a
 * RetriableException ({@link PutOutcome}), and a batch that starts past where the task last sought its partition is
 * refused and the partition sought back ({@link SeekingContext#gapAfterSeek}): records fetched before a seek are
 * never written past the records between.
 */
final class SinkTaskHandler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SinkTaskHandler.class);
    /** Within Connect's default task.shutdown.graceful.timeout.ms (5 s), for all producers at once. */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(4);
    private static final long RETRY_BACKOFF_MS = 1_000;
    /**
     * How many partitions a task opens at the same time. Opening is mostly waiting for the target cluster
     * ({@code initTransactions}, a round trip to the transaction coordinator and its log write; jstack samples of a
     * 2,000-partition run found the opening threads parked there and the broker's request handlers idle), so 32 at a
     * time opened 2,000 partitions in 0.76 x the time of 8 (docs/benchmarks.md).
     */
    static final int OPEN_PARALLELISM = 32;

    private final SeekingContext context;
    private final WriterFactory writers;
    private final ProgressStore progress;
    private final TargetTopics targetTopics;
    private final TransientFailures transients;
    private final CommitTrigger trigger;
    private final Clock clock;
    private final Reestablisher reestablisher;
    private final Map<TopicPartition, PartitionWriter> open = new HashMap<>();
    private final ExecutorService writerThreads = Executors.newCachedThreadPool(daemonThreads());
    /** Partitions closed before their first commit with records waiting: the first record dropped. */
    private final Map<TopicPartition, Long> droppedWithoutProgress = new HashMap<>();
    /** A write failed for good: the writer dropped its waiting records, which the worker counts as delivered. */
    private boolean failed;

    SinkTaskHandler(SinkTaskContext context, WriterFactory writers, ProgressStore progress,
                    TargetTopics targetTopics, TransientFailures transients, CommitTrigger trigger, Clock clock) {
        this.context = new SeekingContext(context);
        this.writers = writers;
        this.progress = progress;
        this.targetTopics = targetTopics;
        this.transients = transients;
        this.trigger = trigger;
        this.clock = clock;
        this.reestablisher = new Reestablisher(this.context, writers, progress);
    }

    /**
     * Creates the partitions' writers (fencing their previous owners), {@link #OPEN_PARALLELISM} at a time, and seeks
     * to their committed progress. Connect stops a task for good on any exception from open, so a transient failure
     * (an initTransactions, admin call or progress read that timed out, a progress read held back by another
     * writer's open transaction) is not thrown: the partitions it hit are left without a writer and opened when the
     * worker delivers their records (see {@link #put}), retried like any transient failure until
     * {@code transient.errors.timeout.ms}. A failure for good closes the writers created and is thrown.
     */
    void open(Collection<TopicPartition> partitions) {
        closeWriters(partitions);
        writers.producers(open.size() + partitions.size());
        List<PartitionWriter> created = new ArrayList<>();
        try {
            BoundedParallel.Outcome<TopicPartition, PartitionWriter> opened =
                    BoundedParallel.run(partitions, OPEN_PARALLELISM, writerThreads, writers.opening(partitions));
            created.addAll(opened.done().values());
            opened.failure(e -> !(e instanceof RetriableException)).filter(e -> !(e instanceof RetriableException))
                    .ifPresent(e -> {
                        throw e;
                    });
            opened.failure(e -> true).ifPresent(e -> openLater(opened.failed().keySet(), e));
            Reestablisher.Restored restored = reestablisher.restore(created);
            if (!restored.failed().isEmpty()) {
                closeInParallel(List.copyOf(restored.failed().keySet()));
                created.removeAll(restored.failed().keySet());
                openLater(restored.failed().keySet().stream().map(PartitionWriter::source).toList(),
                        restored.failed().values().iterator().next());
            }
            Map<TopicPartition, Long> seek = restored.seek();
            resumeWhereDropped(created, seek);
            log.info("Opened {} partitions; resuming {} from their committed progress {}, the others from the"
                    + " worker's own offsets", created.size(), seek.size(), seek);
        } catch (RetriableException e) {
            closeInParallel(created);
            openLater(partitions, e);
            return;
        } catch (RuntimeException e) {
            closeInParallel(created);
            throw e;
        }
        created.forEach(writer -> open.put(writer.source(), writer));
    }

    /**
     * A partition opened again without progress, after this task dropped records of it that waited (closed before
     * its first commit), is sought to the first record dropped: else a batch Connect kept from before (delivered
     * again after a RetriableException, not purged on revoke when an SMT renamed its topic) would be taken past the
     * records dropped, which nothing delivers again. With progress, the progress decides.
     */
    private void resumeWhereDropped(List<PartitionWriter> created, Map<TopicPartition, Long> sought) {
        Map<TopicPartition, Long> seek = new HashMap<>();
        created.forEach(writer -> {
            Long first = droppedWithoutProgress.remove(writer.source());
            if (first != null && !sought.containsKey(writer.source())) {
                seek.put(writer.source(), first);
            }
        });
        if (!seek.isEmpty()) {
            context.offset(seek);
            log.info("Resuming {} at the first records dropped when they were closed before their first commit",
                    seek);
        }
    }

    private static void openLater(Collection<TopicPartition> partitions, RuntimeException cause) {
        log.warn("Could not open {} partitions ({}, ...) now: {}. Each is opened when the worker delivers records of"
                + " it, retried until " + TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG,
                partitions.size(), partitions.iterator().next(), cause.getMessage());
    }

    /**
     * Closes the partitions' writers. Their waiting records are dropped, not written: they are not committed, so
     * whoever writes the partition next reads them again from the committed progress.
     */
    void close(Collection<TopicPartition> partitions) {
        reestablisher.givenUp(partitions);
        closeWriters(partitions);
    }

    private void closeWriters(Collection<TopicPartition> partitions) {
        context.forget(partitions);
        List<PartitionWriter> closing = new ArrayList<>();
        partitions.forEach(partition -> {
            PartitionWriter writer = open.remove(partition);
            if (writer != null) {
                closing.add(writer);
            }
        });
        closing.stream().filter(w -> w.nextOffset().isEmpty() && w.pending().count() > 0).forEach(w ->
                droppedWithoutProgress.merge(w.source(), w.pending().records().get(0).originalKafkaOffset(),
                        Math::min));
        int dropped = closing.stream().mapToInt(w -> w.pending().count()).sum();
        if (dropped > 0) {
            log.info("Closing {} partitions with {} records not yet written; they will be read again from the"
                    + " committed progress", closing.size(), dropped);
        }
        closeInParallel(closing);
    }

    /**
     * Collects the records with those of earlier puts and writes what waits once it is due (see
     * {@link CommitTrigger}): one transaction per source partition, the partitions' transactions at the same time
     * (each partition has its own producer), so a write waits for its slowest partition, not for the sum of them.
     * While records wait, the worker is asked to call put again (with or without new records) by when they are due.
     */
    void put(Collection<SinkRecord> records) {
        Instant began = clock.instant();
        context.delivering();
        try {
            targetTopics.ensure(records); // a missing target topic is created before anything is sent to it
        } catch (RetriableException e) {
            throw transients.failed(e); // nothing taken: Connect delivers the same batch again, within the budget
        }
        long now = clock.millis();
        Map<TopicPartition, List<SinkRecord>> unowned = new LinkedHashMap<>();
        List<TopicPartition> rewound = new ArrayList<>();
        byPartition(records).forEach((partition, batch) -> {
            PartitionWriter writer = open.get(partition);
            if (writer == null) {
                unowned.put(partition, batch);
            } else if (take(partition, batch, writer, now)) {
                rewound.add(partition);
            }
        });
        boolean due = dueInMs(now).orElse(-1) == 0;
        boolean checked = true;
        if (due || !rewound.isEmpty()) {
            List<TopicPartition> checking = new ArrayList<>(rewound);
            if (due) {
                open.forEach((partition, writer) -> {
                    if (writer.pending().count() > 0 && !rewound.contains(partition)) {
                        checking.add(partition);
                    }
                });
            }
            checked = startOverReplacedSources(checking);
            due &= checked;
        }
        if (due || !unowned.isEmpty()) {
            try {
                List<PartitionWriter> writing = due
                        ? open.values().stream().filter(w -> w.pending().count() > 0).toList() : List.of();
                write(writing, unowned, began.plus(writers.writeBound()));
            } catch (RuntimeException e) {
                failed |= !(e instanceof RetriableException);
                throw e;
            }
        }
        long earliest = checked ? 1 : RETRY_BACKOFF_MS; // a check that failed is not asked again at once
        dueInMs(clock.millis()).ifPresent(ms -> context.timeout(Math.max(earliest, ms)));
        context.putReturned();
    }

    /**
     * Adds a delivered batch to its writer's waiting records, unless it starts past where the task last sought the
     * partition ({@link SeekingContext#gapAfterSeek}): then it is dropped and the partition sought back there.
     * Returns whether the batch starts below the committed progress: a batch delivered again, or the worker's
     * consumer rewound by itself, as when its position was out of range of a source topic created again shorter and
     * {@code auto.offset.reset} moved it (see {@link #startOverReplacedSources}).
     */
    private boolean take(TopicPartition partition, List<SinkRecord> batch, PartitionWriter writer, long now) {
        OptionalLong gap = context.gapAfterSeek(partition, batch);
        if (gap.isPresent()) {
            log.warn("The worker delivered records of {} from {} on after the task sought it to {}: records fetched"
                    + " before the seek (Connect delivers a failed or not purged batch again). Dropped, and sought to"
                    + " {} again", partition, Coordinates.of(batch.get(0)), gap.getAsLong(), gap.getAsLong());
            context.offset(partition, gap.getAsLong());
            return false;
        }
        OptionalLong next = writer.nextOffset();
        boolean rewound = next.isPresent() && batch.get(0).originalKafkaOffset() < next.getAsLong();
        writer.add(batch, now);
        return rewound;
    }

    /**
     * Before writing: a partition whose source topic was deleted and created again under the worker's consumer (see
     * {@link ProgressStore#replacedSources}) drops what waits (the new topic's records from the old position on) and
     * is sought to where the new topic starts, so none of the new topic's records is skipped. Checked are the
     * partitions with waiting records, and those the worker rewound by itself (a new topic shorter than the old
     * progress: its records all lie below it, none would ever wait). Returns whether the check was made: when the
     * source cluster did not answer in time, the records keep waiting and the put returns without writing them (a
     * throw would only make Connect deliver them again), counted against transient.errors.timeout.ms.
     */
    private boolean startOverReplacedSources(List<TopicPartition> partitions) {
        Map<TopicPartition, Long> starts;
        try {
            starts = progress.replacedSources(partitions);
        } catch (RetriableException e) {
            RuntimeException verdict = transients.failed(e);
            if (!(verdict instanceof RetriableException)) {
                failed = true;
                throw verdict;
            }
            log.warn("{}; their records wait (nothing of them is written before the check succeeds), checked again"
                    + " at the next put", e.getMessage());
            return false;
        }
        starts.forEach((partition, start) -> {
            PartitionWriter writer = open.get(partition);
            writer.pending().clear();
            writer.restored(start);
            context.offset(partition, start);
        });
        return true;
    }

    /**
     * Re-establishes the partitions of {@code unowned} that Connect still assigns to this task, then writes the
     * waiting records of {@code writing}; the put ends as {@link PutOutcome} decides.
     */
    private void write(List<PartitionWriter> writing, Map<TopicPartition, List<SinkRecord>> unowned,
                       Instant retryUntil) {
        PutRound round = new PutRound();
        reestablishAll(unowned, round);
        Map<TopicPartition, CompletableFuture<Void>> running = new LinkedHashMap<>();
        for (PartitionWriter writer : writing) {
            Executor executor = writing.size() == 1 ? Runnable::run : writerThreads;
            running.put(writer.source(), CompletableFuture.runAsync(() -> writer.write(retryUntil), executor));
        }
        requireProgressTopicAfterFailures(running);
        for (Map.Entry<TopicPartition, CompletableFuture<Void>> written : running.entrySet()) {
            outcome(written.getKey(), written.getValue(), round);
        }
        finish(round);
    }

    /**
     * Re-establishes, {@link #OPEN_PARALLELISM} at a time, the partitions the worker delivered records of while they
     * had no writer (not opened yet, fenced in an earlier put, or a re-establishment that failed), as long as
     * Connect assigns them to this task; their records are dropped, and delivered again from the committed progress.
     */
    private void reestablishAll(Map<TopicPartition, List<SinkRecord>> unowned, PutRound round) {
        Set<TopicPartition> assigned = context.assignment();
        Map<TopicPartition, List<SinkRecord>> owned = new LinkedHashMap<>();
        unowned.forEach((partition, batch) -> {
            if (assigned.contains(partition)) {
                owned.put(partition, batch);
            } else {
                log.info("The worker delivered records of {}, which has no writer and is no longer assigned to this"
                        + " task; they are left to its new owner", partition);
            }
        });
        if (owned.isEmpty()) {
            return;
        }
        writers.producers(open.size() + owned.size());
        BoundedParallel.Outcome<TopicPartition, PartitionWriter> created = BoundedParallel.run(owned.keySet(),
                OPEN_PARALLELISM, writerThreads, writers::create);
        created.failed().forEach((partition, e) -> round.failed(partition, e,
                () -> OptionalLong.of(owned.get(partition).get(0).originalKafkaOffset())));
        if (created.done().isEmpty()) {
            return;
        }
        List<PartitionWriter> reestablishing = new ArrayList<>(created.done().values());
        try {
            Reestablisher.Restored restored = reestablisher.reestablish(reestablishing, owned);
            restored.seek().forEach(round::seek);
            restored.failed().forEach((writer, e) -> round.failed(writer.source(), e,
                    () -> OptionalLong.of(owned.get(writer.source()).get(0).originalKafkaOffset())));
            closeInParallel(List.copyOf(restored.failed().keySet()));
            reestablishing.removeAll(restored.failed().keySet());
        } catch (RuntimeException e) {
            closeInParallel(reestablishing);
            created.done().keySet().forEach(partition -> round.failed(partition, e,
                    () -> OptionalLong.of(owned.get(partition).get(0).originalKafkaOffset())));
            return;
        }
        reestablishing.forEach(writer -> open.put(writer.source(), writer));
    }

    /** When the records waiting in the open partitions are due: 0 now, empty when none waits. */
    private OptionalLong dueInMs(long nowMs) {
        return trigger.dueInMs(open.values().stream().map(PartitionWriter::pending).toList(), nowMs);
    }

    private static Map<TopicPartition, List<SinkRecord>> byPartition(Collection<SinkRecord> records) {
        Map<TopicPartition, List<SinkRecord>> byPartition = new LinkedHashMap<>();
        for (SinkRecord record : records) {
            TopicPartition source = new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
            byPartition.computeIfAbsent(source, p -> new ArrayList<>()).add(record);
        }
        return byPartition;
    }

    /**
     * When a write failed, and before any writer is recreated: a deleted progress topic fails the task at once, while
     * every writer still knows its committed progress (Connect commits it to its own group when the task closes),
     * instead of retrying commits that can never succeed.
     */
    private void requireProgressTopicAfterFailures(Map<TopicPartition, CompletableFuture<Void>> running) {
        CompletableFuture.allOf(running.values().toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        if (running.values().stream().anyMatch(CompletableFuture::isCompletedExceptionally)) {
            progress.requireTopic(running.keySet());
        }
    }

    /**
     * What Connect may commit to its own consumer group for each open partition: the committed progress, or, when
     * nothing of the partition waits, it was not sought since the last put and no write failed for good (that drops
     * what waits, uncommitted), the worker's position after the records it delivered ({@code delivered}, Connect's
     * current offsets), when that is further: every record below it was then committed, or never reached the task (an
     * SMT dropped it, or a converter or transform failed on it under errors.tolerance=all). So a partition whose last
     * records an SMT drops still advances in Connect's group, and in its own progress too (see {@link #advance}).
     */
    Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> delivered) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        open.forEach((partition, writer) -> Optional.ofNullable(delivered.get(partition))
                .filter(p -> !failed && writer.pending().count() == 0 && !context.sought(partition))
                .ifPresent(p -> positions.put(partition, p.offset())));
        advance(positions);
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        open.forEach((partition, writer) -> {
            OptionalLong next = writer.nextOffset();
            long offset = Math.max(next.isPresent() ? next.getAsLong() : -1, positions.getOrDefault(partition, -1L));
            if (offset >= 0) {
                offsets.put(partition, new OffsetAndMetadata(offset));
            }
        });
        return offsets;
    }

    /**
     * Moves the committed progress of the partitions whose worker position is past it on to that position, in a
     * transaction of the progress alone each, at the same time ({@link PartitionWriter#advanceTo}): read again from
     * the older progress (a restart, a rebalance), the records in between would reach Connect's converters and
     * transforms again, and those that failed would go to Connect's dead-letter queue again. A partition without
     * progress resumes from Connect's own offsets, so needs none. A writer fenced or broken meanwhile is closed, the
     * partition left out of the offsets, and re-established when the worker delivers its records again.
     */
    private void advance(Map<TopicPartition, Long> positions) {
        Map<TopicPartition, CompletableFuture<Boolean>> running = new LinkedHashMap<>();
        positions.forEach((partition, position) -> {
            PartitionWriter writer = open.get(partition);
            OptionalLong next = writer.nextOffset();
            if (next.isPresent() && position > next.getAsLong()) {
                running.put(partition, CompletableFuture.supplyAsync(() -> writer.advanceTo(position),
                        writerThreads));
            }
        });
        running.forEach((partition, advancing) -> {
            try {
                advancing.join();
            } catch (CompletionException e) {
                positions.remove(partition);
                closeInParallel(List.of(open.remove(partition)));
                log.warn("Moving the progress of {} on past records that never reached the task failed: {}; the"
                        + " partition is re-established when the worker delivers its records again", partition,
                        e.getCause().getMessage());
            }
        });
    }

    /** Closes every producer at the same time, within {@link #CLOSE_TIMEOUT} together, then the rest. */
    @Override
    public void close() {
        writerThreads.shutdownNow();
        reestablisher.givenUpAll();
        closeWriters(List.copyOf(open.keySet()));
        progress.close();
        targetTopics.close();
        writers.close();
    }

    /** Ends the put as {@link PutOutcome} decides, applying its seeks on the task's thread. */
    private void finish(PutRound round) {
        PutOutcome decided = PutOutcome.of(round.fatal != null, round.transientFailure != null,
                !round.seeks.isEmpty() || context.soughtSincePutBegan());
        if (decided == PutOutcome.FAIL) {
            failed = true;
            throw round.fatal;
        }
        if (decided == PutOutcome.SUCCEED) {
            if (!round.seeks.isEmpty()) {
                context.offset(round.seeks);
            }
            transients.succeeded();
            return;
        }
        context.timeout(RETRY_BACKOFF_MS);
        RuntimeException verdict = transients.failed(round.transientFailure);
        if (decided == PutOutcome.RETRY || !(verdict instanceof RetriableException)) {
            throw verdict;
        }
        round.resumeAtAfterFailure.forEach((partition, resumeAt) ->
                resumeAt.get().ifPresent(offset -> round.seek(partition, offset)));
        context.offset(round.seeks);
        log.warn("Writing {} failed transiently ({}) in a put that also sought {}; they are sought back to their"
                + " committed progress instead of retrying the put, which Connect would deliver again before the"
                + " seeks", round.resumeAtAfterFailure.keySet(), round.transientFailure.getMessage(),
                round.seeks.keySet());
    }

    /**
     * What a partition's write ended in, handled on the task's thread. A fenced or broken writer is closed and the
     * partition sought back to its committed progress: it is re-established once the worker delivers its records
     * again, after the consumer's next poll has confirmed (or revoked) the assignment. A writer that began a redo of
     * its own commits (see {@link RunningRedo}) keeps its producer, and the partition is sought back to where the redo
     * starts, its waiting records dropped. A writer that failed transiently keeps its records waiting; anything else (an Error included, named by the partition when it does
     * not say) fails the put.
     */
    private void outcome(TopicPartition partition, CompletableFuture<Void> write, PutRound round) {
        try {
            write.join();
            reestablisher.written(partition);
        } catch (CompletionException wrapped) {
            Throwable e = wrapped.getCause();
            if (e instanceof WriterErrors.Fenced || e instanceof WriterErrors.BrokenProducer) {
                PartitionWriter writer = open.remove(partition);
                writer.dropWaiting().ifPresent(offset -> round.seek(partition, offset));
                closeInParallel(List.of(writer));
                log.warn("{}; the partition is sought back to its committed progress and re-established when the"
                        + " worker delivers its records again, if it is still assigned to this task", e.getMessage());
                try {
                    reestablisher.fenced(partition, (ConnectException) e);
                } catch (RuntimeException fought) {
                    round.failed(partition, fought, OptionalLong::empty);
                }
            } else if (e instanceof WriterErrors.RedoBegun redo) {
                round.seek(partition, redo.resumeAt);
                log.warn("{}; the partition is sought back there", e.getMessage());
            } else if (e instanceof RetriableException retriable) {
                round.failed(partition, retriable, open.get(partition)::dropWaiting);
            } else if (e instanceof RuntimeException runtime) {
                round.failed(partition, runtime, OptionalLong::empty);
            } else {
                // an Error (a linkage error from a converter or a client built for another Kafka): the task fails
                round.failed(partition, new ConnectException("Writing " + partition + " failed: " + e, e),
                        OptionalLong::empty);
            }
        }
    }

    /**
     * What one put's writes and re-establishments came to: the seeks they ask for, the worst failure for good, the
     * first transient failure, and where each partition that failed transiently resumes if the put does not retry.
     */
    private final class PutRound {
        private final Map<TopicPartition, Long> seeks = new LinkedHashMap<>();
        /** Where they resume, their waiting records dropped, when the put seeks them back instead of retrying. */
        private final Map<TopicPartition, Supplier<OptionalLong>> resumeAtAfterFailure = new LinkedHashMap<>();
        private RuntimeException fatal;
        private RetriableException transientFailure;

        void seek(TopicPartition partition, long offset) {
            seeks.put(partition, offset);
        }

        void failed(TopicPartition partition, RuntimeException e, Supplier<OptionalLong> resumeAt) {
            if (!(e instanceof RetriableException retriable)) {
                fatal = fatal == null ? e : fatal;
                return;
            }
            transientFailure = transientFailure == null ? retriable : transientFailure;
            resumeAtAfterFailure.put(partition, resumeAt);
        }
    }

    private static void closeInParallel(List<PartitionWriter> writers) {
        ParallelClose.WRITERS.closeAll(writers, CLOSE_TIMEOUT);
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "quarantine-sink-writer-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
