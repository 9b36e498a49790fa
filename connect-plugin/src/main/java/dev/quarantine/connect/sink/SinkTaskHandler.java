package dev.quarantine.connect.sink;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

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
    private final Map<TopicPartition, PartitionWriter> open = new HashMap<>();

    SinkTaskHandler(SinkTaskContext context, WriterFactory writers, ProgressStore progress) {
        this.context = context;
        this.writers = writers;
        this.progress = progress;
    }

    /** Creates the partitions' writers (fencing their previous owners) and seeks to their committed progress. */
    void open(Collection<TopicPartition> partitions) {
        List<PartitionWriter> created = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            closeWriter(partition);
            PartitionWriter writer = writers.create(partition);
            open.put(partition, writer);
            created.add(writer);
        }
        restore(created);
    }

    void close(Collection<TopicPartition> partitions) {
        partitions.forEach(this::closeWriter);
    }

    /** Writes the records, one transaction per source partition. */
    void put(Collection<SinkRecord> records) {
        Map<TopicPartition, List<SinkRecord>> byPartition = new LinkedHashMap<>();
        for (SinkRecord record : records) {
            TopicPartition source = new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
            byPartition.computeIfAbsent(source, p -> new ArrayList<>()).add(record);
        }
        RetriableException retry = null;
        for (Map.Entry<TopicPartition, List<SinkRecord>> batch : byPartition.entrySet()) {
            try {
                write(batch.getKey(), batch.getValue());
            } catch (RetriableException e) {
                retry = retry == null ? e : retry;
            }
        }
        if (retry != null) {
            throw retry;
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
        close(List.copyOf(open.keySet()));
        progress.close();
        writers.close();
    }

    private void write(TopicPartition partition, List<SinkRecord> records) {
        PartitionWriter writer = open.get(partition);
        if (writer == null) {
            log.warn("Skipping {} records of {}: this task instance does not own the partition (fenced by its new"
                    + " owner, or not opened)", records.size(), partition);
            return;
        }
        try {
            writer.write(records);
        } catch (PartitionWriter.Fenced e) {
            log.warn("{}: its records stay for the new owner to write", e.getMessage());
            closeWriter(partition);
        } catch (PartitionWriter.BrokenProducer e) {
            log.warn("Recreating the producer of {} after: {}", partition, e.getCause().toString());
            open(List.of(partition));
            throw new RetriableException("The producer of " + partition + " was recreated; the batch is delivered"
                    + " again and written from the committed progress", e);
        }
    }

    private void restore(List<PartitionWriter> created) {
        if (created.isEmpty()) {
            return;
        }
        Map<String, PartitionWriter> byGroup = created.stream()
                .collect(Collectors.toMap(PartitionWriter::group, w -> w));
        Map<String, Long> committed = progress.read(Set.copyOf(byGroup.keySet()));
        Map<TopicPartition, Long> seek = new HashMap<>();
        open.forEach((partition, writer) -> {
            Long next = committed.get(writer.group());
            if (next != null && byGroup.containsKey(writer.group())) {
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

    private void closeWriter(TopicPartition partition) {
        PartitionWriter writer = open.remove(partition);
        if (writer != null) {
            writer.close();
        }
    }
}
