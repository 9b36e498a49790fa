package dev.quarantine.connect.sink;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link TransactionalKafkaSinkTask} does, without Connect: one {@link PartitionWriter} per assigned source
 * partition, created when the partition is opened (its producer's initTransactions fences the previous owner and
 * completes its last transaction), its progress read back from the target cluster and handed to the worker's
 * consumer as the position to resume from, and reported back in {@link #preCommit()} so Connect's consumer lag stays
 * meaningful.
 */
final class SinkTaskHandler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SinkTaskHandler.class);

    private final SinkTaskContext context;
    private final WriterFactory writers;
    private final ProgressStore progress;
    private final TargetTopics targetTopics;
    private final Map<TopicPartition, PartitionWriter> open = new HashMap<>();
    private final ExecutorService writerThreads = Executors.newCachedThreadPool(daemonThreads());

    SinkTaskHandler(SinkTaskContext context, WriterFactory writers, ProgressStore progress,
                    TargetTopics targetTopics) {
        this.context = context;
        this.writers = writers;
        this.progress = progress;
        this.targetTopics = targetTopics;
    }

    /** Creates the partitions' writers (fencing their previous owners) and seeks to their committed progress. */
    void open(Collection<TopicPartition> partitions) {
        Map<TopicPartition, PartitionWriter> created = new LinkedHashMap<>();
        try {
            for (TopicPartition partition : partitions) {
                closeWriter(partition);
                created.put(partition, writers.create(partition));
            }
            restore(created);
        } catch (RuntimeException e) {
            // a writer whose progress is unknown must never be registered: it would write a redelivered batch
            // again from its first record (duplicates). Close them all; the task fails with the read's error.
            created.values().forEach(PartitionWriter::close);
            throw e;
        }
        open.putAll(created);
    }

    void close(Collection<TopicPartition> partitions) {
        partitions.forEach(this::closeWriter);
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
        byPartition.forEach((partition, batch) -> {
            PartitionWriter writer = open.get(partition);
            if (writer == null) {
                log.warn("Skipping {} records of {}: this task instance does not own the partition (fenced by its"
                        + " new owner, or not opened)", batch.size(), partition);
            } else {
                Executor executor = byPartition.size() == 1 ? Runnable::run : writerThreads;
                running.put(partition, CompletableFuture.runAsync(() -> writer.write(batch), executor));
            }
        });
        requireProgressTopicAfterFailures(running);
        RuntimeException failure = null;
        for (Map.Entry<TopicPartition, CompletableFuture<Void>> written : running.entrySet()) {
            RuntimeException error = outcome(written.getKey(), written.getValue());
            if (error != null && (failure == null || failure instanceof RetriableException)) {
                failure = error;
            }
        }
        if (failure != null) {
            throw failure;
        }
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

    @Override
    public void close() {
        writerThreads.shutdownNow();
        close(List.copyOf(open.keySet()));
        progress.close();
        targetTopics.close();
        writers.close();
    }

    /** What a partition's write ended in, handled on the task's thread: null, or the error the task throws. */
    private RuntimeException outcome(TopicPartition partition, CompletableFuture<Void> write) {
        try {
            write.join();
            return null;
        } catch (CompletionException wrapped) {
            Throwable e = wrapped.getCause();
            if (e instanceof PartitionWriter.Fenced fenced) {
                log.warn("{}: its records stay for the new owner to write", fenced.getMessage());
                closeWriter(partition);
                return null;
            }
            if (e instanceof PartitionWriter.BrokenProducer broken) {
                log.warn("Recreating the producer of {} after: {}", partition, broken.getCause().toString());
                open(List.of(partition));
                return new RetriableException("The producer of " + partition + " was recreated; the batch is"
                        + " delivered again and written from the committed progress", broken);
            }
            if (e instanceof RuntimeException runtime) {
                return runtime;
            }
            throw wrapped;
        }
    }

    private void restore(Map<TopicPartition, PartitionWriter> created) {
        if (created.isEmpty()) {
            return;
        }
        Map<String, TopicPartition> byGroup = new LinkedHashMap<>();
        created.forEach((partition, writer) -> byGroup.put(writer.group(), partition));
        Map<String, Long> committed = progress.read(byGroup);
        Map<TopicPartition, Long> seek = new HashMap<>();
        created.forEach((partition, writer) -> {
            Long next = committed.get(writer.group());
            if (next != null) {
                writer.restored(next);
                seek.put(partition, next);
            }
        });
        log.info("Opened {} partitions; resuming {} from their committed progress {}, the others from the worker's"
                + " own offsets", created.size(), seek.size(), seek);
        if (!seek.isEmpty()) {
            context.offset(seek);
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "quarantine-sink-writer-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private void closeWriter(TopicPartition partition) {
        PartitionWriter writer = open.remove(partition);
        if (writer != null) {
            writer.close();
        }
    }
}
