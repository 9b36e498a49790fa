package dev.quarantine.txn.progress;

import static dev.quarantine.sandbox.Utf8.bytes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * A {@link TopicLog} in memory, as a read_committed consumer sees the log: records up to the last stable offset, at
 * most {@link #PER_POLL} per partition and poll; a transaction left open at an offset holds everything above it back.
 */
final class FakeTopicLog implements TopicLog {

    static final int PER_POLL = 2;

    private final Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> logs = new HashMap<>();
    private final Map<TopicPartition, Long> highWatermarks = new HashMap<>();
    private final Map<TopicPartition, Long> openAt = new HashMap<>();
    private final Map<TopicPartition, Long> positions = new HashMap<>();
    final List<IsolationLevel> endsTaken = new ArrayList<>();
    int polls;
    boolean closed;

    /** Appends a committed record ({@code null} key or value as given). */
    FakeTopicLog append(TopicPartition partition, String key, String value) {
        long offset = highWatermarks.getOrDefault(partition, 0L);
        logs.computeIfAbsent(partition, p -> new ArrayList<>()).add(new ConsumerRecord<>(partition.topic(),
                partition.partition(), offset, bytes(key), bytes(value)));
        highWatermarks.put(partition, offset + 1);
        return this;
    }

    /** Appends records of a transaction that stays open: nothing from here on is readable. */
    FakeTopicLog openTransaction(TopicPartition partition, int records) {
        long offset = highWatermarks.getOrDefault(partition, 0L);
        openAt.putIfAbsent(partition, offset);
        highWatermarks.put(partition, offset + records);
        return this;
    }

    private long stable(TopicPartition partition) {
        return openAt.getOrDefault(partition, highWatermarks.getOrDefault(partition, 0L));
    }

    @Override
    public List<TopicPartition> partitionsFor(String topic, Duration timeout) {
        return highWatermarks.keySet().stream().filter(p -> p.topic().equals(topic)).toList();
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, IsolationLevel isolation,
                                                Duration timeout) {
        endsTaken.add(isolation);
        Map<TopicPartition, Long> ends = new HashMap<>();
        partitions.forEach(p -> ends.put(p, isolation == IsolationLevel.READ_COMMITTED ? stable(p)
                : highWatermarks.getOrDefault(p, 0L)));
        return ends;
    }

    @Override
    public void readFromBeginning(Collection<TopicPartition> partitions) {
        positions.clear();
        partitions.forEach(p -> positions.put(p, 0L));
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        return positions.get(partition);
    }

    @Override
    public Iterable<ConsumerRecord<byte[], byte[]>> poll(Duration timeout) {
        polls++;
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        positions.replaceAll((partition, position) -> {
            List<ConsumerRecord<byte[], byte[]>> batch = logs.getOrDefault(partition, List.of()).stream()
                    .filter(r -> r.offset() >= position && r.offset() < stable(partition)).limit(PER_POLL).toList();
            read.addAll(batch);
            return batch.size() < PER_POLL ? Math.max(position, stable(partition))
                    : batch.get(batch.size() - 1).offset() + 1;
        });
        return read;
    }

    @Override
    public void close() {
        closed = true;
    }
}
