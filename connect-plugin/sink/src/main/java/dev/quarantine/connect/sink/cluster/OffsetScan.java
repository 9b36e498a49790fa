package dev.quarantine.connect.sink.cluster;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;

/**
 * One read of {@link WrittenProbe}: decides what is at many offsets of several partitions with one consumer, reading
 * each partition from its lowest offset not yet decided. Every offset a returned batch covers is decided (returned, or
 * passed without being returned), and the consumer skips ahead to the next offset to decide, so a partition takes
 * about one fetch per batch of offsets, not one per offset. An offset retention removed after it was listed is
 * {@link AtFirst#DELETED}, never guessed.
 */
final class OffsetScan {

    private OffsetScan() {
    }

    /**
     * Decides every offset of {@code pending} (each below its partition's {@code stable} offset) into {@code found}
     * with {@code consumer}: a record returned at it is {@code returned}; an offset the consumer's position passed
     * without returning it is {@code passed}.
     *
     * @throws TimeoutException when the offsets are not all decided by {@code deadline} ({@link System#nanoTime})
     */
    static void decide(Consumer<byte[], byte[]> consumer, Map<TopicPartition, TreeSet<Long>> pending,
                       Map<TopicPartition, Long> stable, long deadline,
                       Map<TopicPartition, Map<Long, AtFirst>> found, AtFirst returned, AtFirst passed) {
        if (pending.isEmpty()) {
            return;
        }
        try {
            decideAssigned(consumer, pending, stable, deadline, found, returned, passed);
        } finally {
            consumer.assign(Set.of()); // a partition left paused by a failed scan would stay paused in the next one
        }
    }

    private static void decideAssigned(Consumer<byte[], byte[]> consumer, Map<TopicPartition, TreeSet<Long>> pending,
                                       Map<TopicPartition, Long> stable, long deadline,
                                       Map<TopicPartition, Map<Long, AtFirst>> found, AtFirst ifReturned,
                                       AtFirst ifPassed) {
        consumer.assign(pending.keySet());
        pending.forEach((tp, offsets) -> consumer.seek(tp, offsets.first()));
        while (!pending.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("Could not read " + pending.keySet() + " (where committed records of this"
                        + " task's last transactions should be) in time");
            }
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(WrittenProbe.POLL);
            } catch (OffsetOutOfRangeException gone) {
                deleted(consumer, pending, found, gone);
                continue;
            }
            for (TopicPartition tp : Set.copyOf(pending.keySet())) {
                TreeSet<Long> offsets = pending.get(tp);
                Map<Long, AtFirst> at = found.get(tp);
                Set<Long> returned = new HashSet<>();
                records.records(tp).forEach(record -> returned.add(record.offset()));
                long position = consumer.position(tp);
                boolean passedAll = returned.isEmpty() && position >= stable.get(tp);
                while (!offsets.isEmpty() && (passedAll || offsets.first() < position)) {
                    long first = offsets.pollFirst();
                    at.put(first, returned.contains(first) ? ifReturned : ifPassed);
                }
                if (offsets.isEmpty()) {
                    pending.remove(tp);
                    consumer.pause(Set.of(tp));
                } else if (offsets.first() > position) {
                    consumer.seek(tp, offsets.first()); // what lies between is not asked about
                }
            }
        }
        consumer.assign(Set.of());
    }

    /** Retention passed the offsets asked after they were listed: deleted, never guessed aborted. */
    private static void deleted(Consumer<byte[], byte[]> consumer, Map<TopicPartition, TreeSet<Long>> pending,
                                Map<TopicPartition, Map<Long, AtFirst>> found, OffsetOutOfRangeException gone) {
        gone.offsetOutOfRangePartitions().forEach((tp, at) -> {
            TreeSet<Long> offsets = pending.get(tp);
            while (offsets != null && !offsets.isEmpty() && offsets.first() <= at) {
                found.get(tp).put(offsets.pollFirst(), AtFirst.DELETED);
            }
            if (offsets != null && offsets.isEmpty()) {
                pending.remove(tp);
                consumer.pause(Set.of(tp));
            } else if (offsets != null) {
                consumer.seek(tp, offsets.first());
            }
        });
    }
}
