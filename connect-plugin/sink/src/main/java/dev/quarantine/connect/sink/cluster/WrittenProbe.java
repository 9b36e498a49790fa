package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Look;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.txn.progress.PartitionOffsets;
import dev.quarantine.txn.progress.ReadCommittedConsumers;

/**
 * Reads, {@code read_committed}, where a committed progress record's {@code written} lines say its transaction put
 * its records ({@link WrittenCheck}): per line, the record at {@code first}, and for the partitions asked, the first
 * record visible from {@code end} on. Each partition's log start, high watermark and last stable offset are taken
 * first (one admin call each), so a partition held back by an open transaction is answered without a read, and a
 * read stops at the last stable offset taken then. A consumer without a group, fetching a small amount per partition
 * (one batch is enough to answer); keys and values are never looked at. Not thread-safe; closed by its owner.
 *
 * <p>A record at {@code first} that the {@code read_committed} read passes is aborted only if it is still in the log:
 * a second, {@code read_uncommitted} consumer (made at the first such answer) reads it there. The log cleaner of a
 * compacted topic removes a record a later one of its key superseded (in the same transaction or after it), and a
 * committed transaction whose first record was compacted away is not to be written again
 * ({@link AtFirst#COMPACTED}; review finding MEDIUM-9).
 */
public final class WrittenProbe implements AutoCloseable {

    /** How long one poll waits, here and in {@link OffsetScan}. */
    static final Duration POLL = Duration.ofMillis(100);
    private static final int FETCH_BYTES = 64 * 1024;

    private final Consumer<byte[], byte[]> consumer;
    private final Supplier<Consumer<byte[], byte[]>> uncommittedConsumer;
    private Consumer<byte[], byte[]> uncommitted;
    private final Admin admin;

    /**
     * @param clientConfigs the target cluster's client settings ({@code bootstrap.servers}, security, {@code client.id})
     * @param admin         an admin client of the same cluster, not closed here
     */
    public WrittenProbe(Map<String, Object> clientConfigs, Admin admin) {
        this(new KafkaConsumer<>(configs(clientConfigs), new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                () -> {
                    Map<String, Object> configs = configs(clientConfigs);
                    configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                            IsolationLevel.READ_UNCOMMITTED.toString().toLowerCase(java.util.Locale.ROOT));
                    return new KafkaConsumer<>(configs, new ByteArrayDeserializer(), new ByteArrayDeserializer());
                }, admin);
    }

    WrittenProbe(Consumer<byte[], byte[]> consumer, Supplier<Consumer<byte[], byte[]>> uncommittedConsumer,
                 Admin admin) {
        this.consumer = consumer;
        this.uncommittedConsumer = uncommittedConsumer;
        this.admin = admin;
    }

    private static Map<String, Object> configs(Map<String, Object> clientConfigs) {
        Map<String, Object> configs = ReadCommittedConsumers.configs(clientConfigs);
        // never reset silently: a log start that passed first between the offsets and the fetch is "deleted"
        configs.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        configs.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, FETCH_BYTES);
        configs.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, FETCH_BYTES * 16);
        return configs;
    }

    /**
     * Looks at every line of {@code lines}, and from {@code end} on at those of {@code fromEnd}.
     *
     * @throws TimeoutException when the offsets or a read do not come within {@code timeout} (retriable: the
     *                          partitions are named)
     * @throws org.apache.kafka.common.KafkaException when the cluster cannot be read (an ACL, a deleted topic)
     */
    public Map<TopicPartition, Look> look(Map<TopicPartition, Written> lines, Set<TopicPartition> fromEnd,
                                          Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Listed listed = listed(lines.keySet(), deadline);
        Map<TopicPartition, Long> start = listed.start();
        Map<TopicPartition, Long> stable = listed.stable();

        Map<TopicPartition, AtFirst> atFirst = new HashMap<>();
        Map<TopicPartition, Long> toRead = new HashMap<>();
        lines.forEach((tp, line) -> listed.before(tp, line.first()).ifPresentOrElse(at -> atFirst.put(tp, at),
                () -> toRead.put(tp, line.first())));
        read(toRead, stable, deadline).forEach((tp, offset) -> atFirst.put(tp, offset == null ? AtFirst.DELETED
                : offset.isPresent() && offset.getAsLong() == toRead.get(tp) ? AtFirst.VISIBLE : AtFirst.ABORTED));
        Map<TopicPartition, Map<Long, AtFirst>> confirmed = new HashMap<>();
        atFirst.forEach((tp, at) -> confirmed.put(tp, new HashMap<>(Map.of(lines.get(tp).first(), at))));
        confirmAborted(confirmed, stable, deadline);
        confirmed.forEach((tp, at) -> atFirst.put(tp, at.get(lines.get(tp).first())));

        Map<TopicPartition, Long> ends = new HashMap<>();
        for (TopicPartition tp : fromEnd) {
            Written line = lines.get(tp);
            if (line != null && line.end() < stable.get(tp)) {
                ends.put(tp, Math.max(line.end(), start.get(tp)));
            }
        }
        Map<TopicPartition, OptionalLong> visibleFromEnd = new HashMap<>(read(ends, stable, deadline));
        visibleFromEnd.values().removeIf(Objects::isNull); // retention passed end meanwhile: nothing seen from there

        Map<TopicPartition, Look> looks = new HashMap<>();
        atFirst.forEach((tp, at) -> {
            OptionalLong visible = visibleFromEnd.getOrDefault(tp, OptionalLong.empty());
            boolean heldBack = fromEnd.contains(tp) && visible.isEmpty()
                    && stable.get(tp) < listed.highWatermark().get(tp);
            looks.put(tp, new Look(at, visible, heldBack));
        });
        return looks;
    }

    /**
     * Looks at several lines per partition at once (the lines of many source partitions share a dead-letter
     * partition, or a target partition under {@code target.partition.mapping}): what is at each offset of
     * {@code firsts}. The offsets are listed once per partition; then one consumer ({@link OffsetScan}) reads each
     * partition from its lowest offset not yet decided: every offset a returned batch covers is decided (returned:
     * visible; passed without being returned: aborted), and the consumer skips ahead to the next offset to decide, so
     * a partition takes about one fetch per batch of lines, not one per line.
     *
     * @throws TimeoutException when the offsets or a read do not come within {@code timeout} (retriable)
     * @throws org.apache.kafka.common.KafkaException when the cluster cannot be read (an ACL, a deleted topic)
     */
    public Map<TopicPartition, Map<Long, AtFirst>> lookAll(Map<TopicPartition, ? extends Collection<Long>> firsts,
                                                           Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Map<Long, AtFirst>> found = new HashMap<>();
        if (firsts.isEmpty()) {
            return found;
        }
        Listed listed = listed(firsts.keySet(), deadline);
        Map<TopicPartition, TreeSet<Long>> pending = new HashMap<>();
        firsts.forEach((tp, offsets) -> {
            Map<Long, AtFirst> at = found.computeIfAbsent(tp, k -> new HashMap<>());
            for (long first : offsets) {
                listed.before(tp, first).ifPresentOrElse(decided -> at.put(first, decided),
                        () -> pending.computeIfAbsent(tp, k -> new TreeSet<>()).add(first));
            }
        });
        OffsetScan.decide(consumer, pending, listed.stable(), deadline, found, AtFirst.VISIBLE, AtFirst.ABORTED);
        confirmAborted(found, listed.stable(), deadline);
        return found;
    }

    /**
     * Reads every offset {@code found} says ABORTED again {@code read_uncommitted}: still in the log, it stays ABORTED
     * (a committed record is never skipped by {@code read_committed}); passed without being returned, it was removed
     * by the log cleaner: COMPACTED.
     */
    private void confirmAborted(Map<TopicPartition, Map<Long, AtFirst>> found, Map<TopicPartition, Long> stable,
                                long deadline) {
        Map<TopicPartition, TreeSet<Long>> aborted = new HashMap<>();
        found.forEach((tp, at) -> at.forEach((first, decided) -> {
            if (decided == AtFirst.ABORTED) {
                aborted.computeIfAbsent(tp, k -> new TreeSet<>()).add(first);
            }
        }));
        if (aborted.isEmpty()) {
            return;
        }
        if (uncommitted == null) {
            uncommitted = uncommittedConsumer.get();
        }
        OffsetScan.decide(uncommitted, aborted, stable, deadline, found, AtFirst.ABORTED, AtFirst.COMPACTED);
    }

    /** Each partition's log start, high watermark and last stable offset, as listed before any read. */
    private record Listed(Map<TopicPartition, Long> start, Map<TopicPartition, Long> highWatermark,
                          Map<TopicPartition, Long> stable) {

        /** What the listed offsets alone say of {@code first}; empty when it is to be read. */
        Optional<AtFirst> before(TopicPartition tp, long first) {
            if (first >= highWatermark.get(tp)) {
                return Optional.of(AtFirst.MISSING);
            } else if (first < start.get(tp)) {
                return Optional.of(AtFirst.DELETED);
            } else if (first >= stable.get(tp)) {
                return Optional.of(AtFirst.HELD_BACK);
            }
            return Optional.empty();
        }
    }

    private Listed listed(Set<TopicPartition> partitions, long deadline) {
        return new Listed(offsets(partitions, OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED, deadline),
                offsets(partitions, OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED, deadline),
                offsets(partitions, OffsetSpec.latest(), IsolationLevel.READ_COMMITTED, deadline));
    }

    /**
     * Per partition, the offset of the first record visible at or after its position in {@code from}, below its
     * {@code stable} offset; empty when the read reached that offset without one; {@code null} when the log start
     * passed the position before it was read (retention or a deletion of records meanwhile).
     */
    private Map<TopicPartition, OptionalLong> read(Map<TopicPartition, Long> from, Map<TopicPartition, Long> stable,
                                                   long deadline) {
        Map<TopicPartition, OptionalLong> found = new HashMap<>();
        if (from.isEmpty()) {
            return found;
        }
        consumer.assign(from.keySet());
        from.forEach(consumer::seek);
        Set<TopicPartition> open = new HashSet<>(from.keySet());
        while (!open.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("Could not read " + open + " from " + positions(open, from)
                        + " (where committed records of this task's last transaction should be) in time");
            }
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(POLL);
            } catch (OffsetOutOfRangeException gone) {
                for (TopicPartition tp : gone.partitions()) {
                    found.put(tp, null);
                    open.remove(tp);
                    consumer.pause(Set.of(tp));
                }
                continue;
            }
            for (TopicPartition tp : Set.copyOf(open)) {
                var batch = records.records(tp);
                if (!batch.isEmpty()) {
                    ConsumerRecord<byte[], byte[]> first = batch.get(0);
                    found.put(tp, OptionalLong.of(first.offset()));
                } else if (consumer.position(tp) >= stable.get(tp)) {
                    found.put(tp, OptionalLong.empty());
                } else {
                    continue;
                }
                open.remove(tp);
                consumer.pause(Set.of(tp));
            }
        }
        consumer.assign(Set.of());
        return found;
    }

    private static Map<TopicPartition, Long> positions(Set<TopicPartition> open, Map<TopicPartition, Long> from) {
        return open.stream().collect(Collectors.toMap(Function.identity(), from::get));
    }

    private Map<TopicPartition, Long> offsets(Collection<TopicPartition> partitions, OffsetSpec spec,
                                              IsolationLevel isolation, long deadline) {
        return PartitionOffsets.list(admin, partitions, spec, isolation,
                Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
        if (uncommitted != null) {
            uncommitted.close(Duration.ofSeconds(5));
        }
    }
}
