package dev.quarantine.connect.sink;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

import dev.quarantine.connect.sink.cluster.WrittenChecks;
import dev.quarantine.connect.sink.ownership.Ownership;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.connect.sink.progress.ProgressRecord.Holder;
import dev.quarantine.connect.sink.write.TaskTransaction;
import dev.quarantine.connect.sink.write.TaskWriter;
import dev.quarantine.connect.sink.write.WriterFactory;

/**
 * One slot of a task (docs/design/sink-ownership.md 2.1): its transactional id {@code <prefix>:task#<n>.<j>}, its
 * producer, the {@link Ownership} of the source partitions it writes and their {@link TaskWriter}. A source partition
 * is the slot {@code murmur2(<topic>-<partition>) mod producers.per.task}'s ({@link #of}).
 */
final class TaskSlot {

    final String id;
    final Ownership ownership;
    final TaskWriter writer;
    private final SlotProducer producer;
    private final WriterFactory writers;
    /** Rule V's check (design 2.7.1), shared by the task's slots. */
    final WrittenChecks repair;

    TaskSlot(String id, SlotProducer producer, Ownership ownership, TaskWriter writer, WriterFactory writers,
             WrittenChecks repair) {
        this.repair = repair;
        this.id = id;
        this.producer = producer;
        this.ownership = ownership;
        this.writer = writer;
        this.writers = writers;
    }

    /** The slot of {@code slots} that writes {@code partition}. */
    static <T> T of(List<T> slots, TopicPartition partition) {
        if (slots.size() == 1) {
            return slots.get(0);
        }
        byte[] name = (partition.topic() + "-" + partition.partition()).getBytes(StandardCharsets.UTF_8);
        return slots.get(Utils.toPositive(Utils.murmur2(name)) % slots.size());
    }

    /** A transaction of the slot's current producer; each partition's progress names the claim it is OWNED under. */
    TaskTransaction transaction() {
        return writers.transaction(producer, id, partition -> new Holder(id, ownership.ownedUnder(partition)
                .orElseThrow(() -> new IllegalStateException(partition + " is written by " + id + " but not OWNED"))));
    }

    void close(Duration timeout) {
        producer.close(timeout);
    }
}
