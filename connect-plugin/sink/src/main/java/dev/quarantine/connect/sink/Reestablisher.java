package dev.quarantine.connect.sink;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores writers from their committed progress, and re-establishes a partition whose producer was fenced or
 * broken: when Connect still assigns the partition to this task, a new producer (initTransactions fences whoever
 * fenced us and completes their last transaction), the progress read again, and the worker's consumer sought back to
 * it, so the lost batch is delivered again and written once. Being fenced is not a reason to give a partition up:
 * the coordinator fences a producer whose transaction outlived {@code transaction.timeout.ms}, and an operator may
 * fence producers. A partition fenced {@value #MAX_FENCES_IN_A_ROW} times without a commit in between is fought over
 * by another running instance (two connectors with one {@code transactional.id.prefix}): the task stops.
 */
final class Reestablisher {

    private static final Logger log = LoggerFactory.getLogger(Reestablisher.class);
    static final int MAX_FENCES_IN_A_ROW = 5;

    private final SinkTaskContext context;
    private final WriterFactory writers;
    private final ProgressStore progress;
    private final Map<TopicPartition, Integer> fencesInARow = new HashMap<>();

    Reestablisher(SinkTaskContext context, WriterFactory writers, ProgressStore progress) {
        this.context = context;
        this.writers = writers;
        this.progress = progress;
    }

    /**
     * Reads the writers' committed progress and seeks the worker's consumer to it; a writer without progress starts
     * from the worker's own offsets. Returns the seeks.
     */
    Map<TopicPartition, Long> restore(List<PartitionWriter> created) {
        Map<TopicPartition, Long> seek = new HashMap<>();
        if (created.isEmpty()) {
            return seek;
        }
        Map<String, PartitionWriter> byGroup = created.stream()
                .collect(Collectors.toMap(PartitionWriter::group, Function.identity()));
        Map<String, TopicPartition> sources = byGroup.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().source()));
        created.forEach(PartitionWriter::beforeReadingProgress);
        Map<String, ProgressRecord> committed = progress.read(sources);
        committed.forEach((group, last) -> {
            PartitionWriter writer = byGroup.get(group);
            writer.restored(last.next());
            seek.put(writer.source(), last.next());
        });
        if (!seek.isEmpty()) {
            context.offset(seek);
        }
        return seek;
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
     * A new writer for a partition from its committed progress, the consumer sought to it so that {@code batch} is
     * delivered again; or empty when Connect no longer assigns the partition to this task. {@code cause} is the
     * fencing that lost the old writer, or empty when there is none (an earlier re-establishment failed).
     */
    Optional<PartitionWriter> reestablish(TopicPartition partition, List<SinkRecord> batch,
                                          Optional<ConnectException> cause) {
        String why = cause.map(ConnectException::getMessage)
                .orElse("The partition " + partition + " has no writer (not opened, or its re-establishment failed)");
        if (!context.assignment().contains(partition)) {
            log.info("{}; the partition is no longer assigned to this task, its new owner writes it", why);
            return Optional.empty();
        }
        if (cause.isPresent()) {
            countFence(partition, cause.get());
        }
        log.warn("{}; re-establishing the partition: a new producer, its progress read again, the batch delivered"
                + " again from there", why);
        PartitionWriter writer = writers.create(partition);
        try {
            if (!restore(List.of(writer)).containsKey(partition)) {
                // never committed: the batch is the partition's first, delivered again from its first record
                writer.restored(batch.get(0).originalKafkaOffset());
                context.offset(partition, batch.get(0).originalKafkaOffset());
            }
            writers.metrics().reestablished();
            return Optional.of(writer);
        } catch (RuntimeException e) {
            writer.close(SinkTaskHandler.CLOSE_TIMEOUT);
            throw e;
        }
    }
}
