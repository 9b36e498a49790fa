package dev.quarantine.connect.sink;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.write.CarriedRedo;
import dev.quarantine.connect.sink.write.PartitionWriter;
import dev.quarantine.connect.sink.write.WriterErrors;
import dev.quarantine.connect.sink.write.WriterFactory;

/**
 * Restores writers from their committed progress, and re-establishes a partition that has no writer (its producer
 * was fenced or broken, or opening it failed transiently): a new producer (initTransactions fences whoever fenced us
 * and completes their last transaction), the progress read again, and the worker's consumer sought back to it, so
 * the records are delivered again and written once. Being fenced is not a reason to give a partition up: the
 * coordinator fences a producer whose transaction outlived {@code transaction.timeout.ms}, and an operator may fence
 * producers. But a fenced partition is re-established only once the worker delivers records of it again, after its
 * consumer's next poll (see {@link SinkTaskHandler}): a zombie task whose consumer has not yet learnt that the
 * partition moved learns it there instead of fencing the rightful owner. A partition fenced
 * {@value #MAX_FENCES_IN_A_ROW} times without a commit in between is fought over by another running instance (two
 * connectors with one {@code transactional.id.prefix}): the task stops.
 */
public final class Reestablisher {

    private static final Logger log = LoggerFactory.getLogger(Reestablisher.class);
    static final int MAX_FENCES_IN_A_ROW = 5;

    private final SinkTaskContext context;
    private final WriterFactory writers;
    private final ProgressStore progress;
    private final Map<TopicPartition, Integer> fencesInARow = new HashMap<>();
    /** Redos a broken or fenced writer could not begin, for the partition's next producer (see {@link CarriedRedo}). */
    private final Map<TopicPartition, CarriedRedo> carried = new HashMap<>();

    Reestablisher(SinkTaskContext context, WriterFactory writers, ProgressStore progress) {
        this.context = context;
        this.writers = writers;
        this.progress = progress;
    }

    /**
     * What reading the progress of writers opened together gave: where each resumes ({@code seek}), and the writers
     * whose own part failed transiently ({@code failed}: a look at the partitions their topics, their progress
     * partition's open transaction), to be closed and opened again later; one partition's failure is not the others'.
     */
    record Restored(Map<TopicPartition, Long> seek, Map<PartitionWriter, RetriableException> failed) {
    }

    /**
     * Reads the writers' committed progress and seeks the worker's consumer to it; a writer without progress starts
     * from the worker's own offsets.
     */
    Restored restore(List<PartitionWriter> created) {
        Restored restored = read(created);
        if (!restored.seek().isEmpty()) {
            context.offset(restored.seek());
        }
        return restored;
    }

    /** Reads the writers' committed progress into them, without seeking. */
    private Restored read(List<PartitionWriter> created) {
        Map<TopicPartition, Long> seek = new HashMap<>();
        Map<PartitionWriter, RetriableException> failed = new LinkedHashMap<>();
        if (created.isEmpty()) {
            return new Restored(seek, failed);
        }
        created.forEach(writer -> each(writer, failed, () -> writer.beforeReadingProgress()));
        List<PartitionWriter> reading = created.stream().filter(writer -> !failed.containsKey(writer)).toList();
        Map<String, PartitionWriter> byGroup = reading.stream()
                .collect(Collectors.toMap(PartitionWriter::group, Function.identity()));
        Map<String, TopicPartition> sources = byGroup.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().source()));
        Map<String, ProgressRecord> committed = sources.isEmpty() ? Map.of() : progress.read(sources);
        Map<String, Set<String>> looked = new HashMap<>(); // one look for all, not one per partition
        committed.forEach((group, last) -> looked.put(group, byGroup.get(group).topicsACommitMayBeLeftOpenOn(last)));
        writers.lookForCommitsLeftOpen(looked);
        committed.forEach((group, last) -> {
            PartitionWriter writer = byGroup.get(group);
            each(writer, failed, () -> {
                seek.put(writer.source(), writer.restored(last, Optional.ofNullable(carried.get(writer.source()))));
                carried.remove(writer.source()); // begun (or named as lost): a failure above keeps it for the next try
            });
        });
        return new Restored(seek, failed);
    }

    /**
     * Runs {@code step} of {@code writer}; a transient failure is the writer's alone, recorded in {@code failed} (the
     * caller reports it).
     */
    private static void each(PartitionWriter writer, Map<PartitionWriter, RetriableException> failed, Runnable step) {
        try {
            step.run();
        } catch (RetriableException e) {
            failed.put(writer, e);
        }
    }

    /**
     * The partition's writer was fenced (or broken): counted, and past {@value #MAX_FENCES_IN_A_ROW} fences without a
     * commit in between the task stops. A redo it could not begin ({@link WriterErrors.Fenced#redo()}) is kept for the
     * partition's next producer of this task, which begins it after reading the progress.
     */
    void fenced(TopicPartition partition, ConnectException cause) {
        Optional<CarriedRedo> redo = cause instanceof WriterErrors.Fenced fenced ? fenced.redo()
                : cause instanceof WriterErrors.BrokenProducer broken ? broken.redo() : Optional.empty();
        redo.ifPresent(r -> carried.merge(partition, r, CarriedRedo::joinedWith));
        countFence(partition, cause);
    }

    /** The task stops: {@link #givenUp} for every partition. */
    void givenUpAll() {
        givenUp(List.copyOf(carried.keySet()));
    }

    /**
     * The task gives {@code partitions} up (revoked, or stopped): a redo still carried for one of them is lost unless
     * this task opens it again, and is named at ERROR with how to copy its records again. Kept for that case: a
     * progress moved on by another task meanwhile is noticed then ({@link CarriedRedo#after}).
     */
    void givenUp(Collection<TopicPartition> partitions) {
        partitions.stream().filter(carried::containsKey).forEach(partition -> log.error("{}; if another task opens"
                + " the partition, they are not", new WriterErrors.RedoLost(partition, carried.get(partition),
                new IllegalStateException(partition + " was closed before its next producer began the redo"))
                .getMessage()));
    }

    private void countFence(TopicPartition partition, ConnectException cause) {
        int fences = fencesInARow.merge(partition, 1, Integer::sum);
        if (fences > MAX_FENCES_IN_A_ROW) {
            throw new ConnectException("The producer of " + partition + " was fenced " + fences + " times in a row:"
                    + " another running instance writes the same partition with the same transactional ids. Give"
                    + " each connector its own " + TransactionalSinkConfig.TRANSACTIONAL_ID_PREFIX_CONFIG, cause);
        }
    }

    /** A batch of the partition committed: its count of fences in a row starts again. */
    void written(TopicPartition partition) {
        fencesInARow.remove(partition);
    }

    /**
     * Re-establishes partitions the worker delivered records of while they had no writer: {@code created} are their
     * new writers (their producers initialized), {@code batches} the records delivered. Reads their progress at once
     * and returns, by partition, the offset the worker's consumer must seek to for the records to be delivered
     * again: the committed progress, or the first record of its batch when the partition never committed. The
     * caller seeks on the task's thread, closes the writers if this throws, and those {@link Restored#failed} says.
     */
    Restored reestablish(List<PartitionWriter> created, Map<TopicPartition, List<SinkRecord>> batches) {
        log.warn("Re-establishing {} partitions that have no writer (not opened yet, fenced, or a re-establishment"
                + " that failed) and whose records the worker delivered: new producers, their progress read again,"
                + " the records delivered again from there: {}", created.size(), batches.keySet());
        Restored restored = read(created);
        for (PartitionWriter writer : created) {
            if (restored.failed().containsKey(writer)) {
                continue;
            }
            if (!restored.seek().containsKey(writer.source())) {
                // never committed: the batch is the partition's first, delivered again from its first record
                long first = batches.get(writer.source()).get(0).originalKafkaOffset();
                writer.restored(first);
                restored.seek().put(writer.source(), first);
            }
            writers.metrics().reestablished();
        }
        return restored;
    }
}
