package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link TransactionalKafkaSinkTask} does, without Connect: one {@link PartitionWriter} per assigned source
 * partition, created when the partition is opened (its producer's initTransactions fences the previous owner and
 * completes its last transaction), registered once its progress is read back from the target cluster, the worker's
 * consumer sought to that progress, and reported back in {@link #preCommit()} so Connect's consumer lag stays
 * meaningful.
 *
 * <p>Ownership is never given up silently: a writer whose producer was fenced (or broken) is re-established (see
 * {@link Reestablisher}) as long as Connect still assigns the partition to this task. A partition that truly moved
 * is closed by the rebalance that moved it.
 */
final class SinkTaskHandler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SinkTaskHandler.class);
    /** Within Connect's default task.shutdown.graceful.timeout.ms (5 s), for all producers at once. */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(4);
    private static final long RETRY_BACKOFF_MS = 1_000;
    /**
     * How many partitions a task opens at the same time: each open is round trips to the target cluster (fencing,
     * the last transaction's state, the progress), so a few at a time cut the start of a task with hundreds of
     * partitions by that factor, while creating clients stays within what two cores do at once.
     */
    static final int OPEN_PARALLELISM = 8;

    private final SinkTaskContext context;
    private final WriterFactory writers;
    private final ProgressStore progress;
    private final TargetTopics targetTopics;
    private final TransientFailures transients;
    private final Reestablisher reestablisher;
    private final Map<TopicPartition, PartitionWriter> open = new HashMap<>();
    private final ExecutorService writerThreads = Executors.newCachedThreadPool(daemonThreads());

    SinkTaskHandler(SinkTaskContext context, WriterFactory writers, ProgressStore progress,
                    TargetTopics targetTopics, TransientFailures transients) {
        this.context = context;
        this.writers = writers;
        this.progress = progress;
        this.targetTopics = targetTopics;
        this.transients = transients;
        this.reestablisher = new Reestablisher(context, writers, progress, writerThreads);
    }

    /**
     * Creates the partitions' writers (fencing their previous owners), {@link #OPEN_PARALLELISM} at a time, and seeks
     * to their committed progress. When any fails, the others are closed again and the worst failure is thrown (a
     * fatal one over a retriable one).
     */
    void open(Collection<TopicPartition> partitions) {
        close(partitions);
        writers.producers(open.size() + partitions.size());
        BoundedParallel.Outcome<TopicPartition, PartitionWriter> opened =
                BoundedParallel.run(partitions, OPEN_PARALLELISM, writerThreads, writers.opening(partitions));
        List<PartitionWriter> created = new ArrayList<>(opened.done().values());
        try {
            opened.failure(e -> !(e instanceof RetriableException)).ifPresent(e -> {
                throw e;
            });
            Map<TopicPartition, Long> seek = reestablisher.restore(created);
            log.info("Opened {} partitions; resuming {} from their committed progress {}, the others from the"
                    + " worker's own offsets", created.size(), seek.size(), seek);
        } catch (RuntimeException e) {
            closeInParallel(created);
            throw e;
        }
        created.forEach(writer -> open.put(writer.source(), writer));
    }

    void close(Collection<TopicPartition> partitions) {
        List<PartitionWriter> closing = new ArrayList<>();
        partitions.forEach(partition -> {
            PartitionWriter writer = open.remove(partition);
            if (writer != null) {
                closing.add(writer);
            }
        });
        closeInParallel(closing);
    }

    /**
     * Writes the records, one transaction per source partition. The partitions' transactions run at the same time
     * (each partition has its own producer), so a batch waits for its slowest partition, not for the sum of them.
     */
    void put(Collection<SinkRecord> records) {
        targetTopics.ensure(records); // a missing target topic is created before anything is sent to it
        Map<TopicPartition, List<SinkRecord>> byPartition = new LinkedHashMap<>();
        for (SinkRecord record : records) {
            TopicPartition source = new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
            byPartition.computeIfAbsent(source, p -> new ArrayList<>()).add(record);
        }
        Map<TopicPartition, CompletableFuture<Void>> running = new LinkedHashMap<>();
        Map<TopicPartition, Optional<ConnectException>> lost = new LinkedHashMap<>();
        byPartition.forEach((partition, batch) -> {
            PartitionWriter writer = open.get(partition);
            if (writer == null) {
                lost.put(partition, Optional.empty());
            } else {
                Executor executor = byPartition.size() == 1 ? Runnable::run : writerThreads;
                running.put(partition, CompletableFuture.runAsync(() -> writer.write(batch), executor));
            }
        });
        requireProgressTopicAfterFailures(running);
        RuntimeException failure = null;
        for (Map.Entry<TopicPartition, CompletableFuture<Void>> written : running.entrySet()) {
            failure = worse(failure, outcome(written.getKey(), written.getValue(), lost));
        }
        for (Map.Entry<TopicPartition, Optional<ConnectException>> partition : lost.entrySet()) {
            failure = worse(failure, reestablish(partition.getKey(), byPartition.get(partition.getKey()),
                    partition.getValue()));
        }
        finish(failure);
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

    /** The committed progress of every open partition, for Connect to commit to its own consumer group. */
    Map<TopicPartition, OffsetAndMetadata> preCommit() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        open.forEach((partition, writer) -> writer.nextOffset()
                .ifPresent(next -> offsets.put(partition, new OffsetAndMetadata(next))));
        return offsets;
    }

    /** Closes every producer at the same time, within {@link #CLOSE_TIMEOUT} together, then the rest. */
    @Override
    public void close() {
        writerThreads.shutdownNow();
        close(List.copyOf(open.keySet()));
        progress.close();
        targetTopics.close();
        writers.close();
    }

    private void finish(RuntimeException failure) {
        if (failure == null) {
            transients.succeeded();
            return;
        }
        if (failure instanceof RetriableException retriable) {
            context.timeout(RETRY_BACKOFF_MS);
            throw transients.failed(retriable);
        }
        throw failure;
    }

    /**
     * What a partition's write ended in, handled on the task's thread: null, or the error the task throws (anything
     * the write threw, an Error included, named by the partition when it does not say). A fenced or broken writer is
     * closed and its partition goes into {@code lost}, to be re-established.
     */
    private RuntimeException outcome(TopicPartition partition, CompletableFuture<Void> write,
                                     Map<TopicPartition, Optional<ConnectException>> lost) {
        try {
            write.join();
            reestablisher.written(partition);
            return null;
        } catch (CompletionException wrapped) {
            Throwable e = wrapped.getCause();
            if (e instanceof WriterErrors.Fenced || e instanceof WriterErrors.BrokenProducer) {
                closeInParallel(List.of(open.remove(partition)));
                lost.put(partition, Optional.of((ConnectException) e));
                return null;
            }
            if (e instanceof RuntimeException runtime) {
                return runtime;
            }
            // an Error (a linkage error from a converter or a client built for another Kafka): the task fails
            return new ConnectException("Writing " + partition + " failed: " + e, e);
        }
    }

    /**
     * A partition without a writer: fenced just now ({@code cause}), or left without one by a re-establishment that
     * failed. Re-established while Connect assigns it to this task; returns the error if that fails.
     */
    private RuntimeException reestablish(TopicPartition partition, List<SinkRecord> batch,
                                         Optional<ConnectException> cause) {
        try {
            reestablisher.reestablish(partition, batch, cause).ifPresent(writer -> open.put(partition, writer));
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** The error the put throws of two: a fatal one wins over a retriable one, the first over a later one. */
    private static RuntimeException worse(RuntimeException first, RuntimeException second) {
        return first == null || (first instanceof RetriableException && second != null
                && !(second instanceof RetriableException)) ? second : first;
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
