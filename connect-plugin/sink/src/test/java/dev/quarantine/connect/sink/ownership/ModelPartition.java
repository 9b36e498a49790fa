package dev.quarantine.connect.sink.ownership;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.ownership.TransactionFacts.OpenTransaction;

/**
 * One partition of the model: an append log whose records carry their producer id, epoch and fate, and the leader's
 * producer state as Kafka's {@code ProducerStateManager} keeps it: per producer id at most one open range, from its
 * first open offset; a marker ends the producer id's whole open range (records appended after a skipped marker join
 * it), and the last stable offset is the first offset of the earliest open range ({@code lastStableOffset},
 * {@code completeTxn}, read in apache/kafka {@code storage/.../ProducerStateManager.java}).
 */
final class ModelPartition {

    enum Fate { OPEN, COMMITTED, ABORTED }

    private final TopicPartition partition;
    private final List<Entry> log = new ArrayList<>();
    private final Map<Long, Long> openSince = new TreeMap<>();
    private final Set<Long> skipNextMarker = new HashSet<>();

    ModelPartition(TopicPartition partition) {
        this.partition = partition;
    }

    long append(ProducerEpoch producer, byte[] key, byte[] value) {
        long offset = log.size();
        log.add(new Entry(offset, producer, key, value));
        openSince.putIfAbsent(producer.producerId(), offset);
        return offset;
    }

    /** The next marker of {@code producerId} here is not written (a leaderless partition, design 2.7.1). */
    void skipNextMarker(long producerId) {
        skipNextMarker.add(producerId);
    }

    void marker(long producerId, boolean commit) {
        if (skipNextMarker.remove(producerId)) {
            return;
        }
        Long first = openSince.remove(producerId);
        if (first == null) {
            return;
        }
        log.stream().skip(first)
                .filter(entry -> entry.producer.producerId() == producerId && entry.fate == Fate.OPEN)
                .forEach(entry -> entry.fate = commit ? Fate.COMMITTED : Fate.ABORTED);
    }

    long lastStableOffset() {
        return openSince.values().stream().mapToLong(Long::longValue).min().orElse(log.size());
    }

    long highWatermark() {
        return log.size();
    }

    Fate fate(long offset) {
        return log.get((int) offset).fate;
    }

    /** The values a {@code read_committed} consumer returns, as text. */
    List<String> readCommitted() {
        return readCommitted(0).stream().map(record -> new String(record.value(), UTF_8)).toList();
    }

    /** The records a {@code read_committed} consumer returns from {@code from}: committed, below the stable offset. */
    List<ConsumerRecord<byte[], byte[]>> readCommitted(long from) {
        long stable = lastStableOffset();
        return log.stream()
                .filter(entry -> entry.offset >= from && entry.offset < stable && entry.fate == Fate.COMMITTED)
                .map(entry -> new ConsumerRecord<>(partition.topic(), partition.partition(), entry.offset, entry.key,
                        entry.value))
                .toList();
    }

    /** {@code describeProducers}: each producer id's open range, with the epoch of its latest record. */
    List<OpenTransaction> open() {
        List<OpenTransaction> open = new ArrayList<>();
        openSince.forEach((producerId, first) -> {
            ProducerEpoch latest = log.stream().filter(entry -> entry.producer.producerId() == producerId)
                    .reduce((a, b) -> b).orElseThrow().producer;
            open.add(new OpenTransaction(partition, latest, first));
        });
        return open;
    }

    private static final class Entry {
        private final long offset;
        private final ProducerEpoch producer;
        private final byte[] key;
        private final byte[] value;
        private Fate fate = Fate.OPEN;

        private Entry(long offset, ProducerEpoch producer, byte[] key, byte[] value) {
            this.offset = offset;
            this.producer = producer;
            this.key = key;
            this.value = value;
        }
    }
}
