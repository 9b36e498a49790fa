package dev.quarantine.txn.progress;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import dev.quarantine.txn.RecordPositions;

/**
 * The one reader of a compacted topic of states (the sink's progress topic, the replay's): reads partitions
 * {@code read_committed} from their first offset up to an end taken when the read starts ({@link ReadEnd}: the high
 * watermark after the caller's fence, or the last stable offset for views that must not wait), and answers the
 * state each key has there, which is what compaction keeps:
 * <ul>
 *   <li>the last record of a key wins (a key is written to one partition, so "last" is by offset);</li>
 *   <li>a tombstone goes to its {@link KeyedFormat} with its {@code topic-partition@offset}
 *       ({@link KeyedFormat#tombstone}), which deletes the key (the default), keeps a value for it (a reset the
 *       caller reads) or refuses it; a record the format does not keep deletes its key too;</li>
 *   <li>aborted records and records of transactions still open are never read (read_committed);</li>
 *   <li>a record without a key is not a state and is passed over;</li>
 *   <li>a record its format does not read is refused ({@link UnreadableRecordException} naming
 *       {@code topic-partition@offset}): a read never answers without a record it could not read;</li>
 *   <li>a read that does not reach its end by the deadline fails ({@link ReadHeldBackException}, retriable)
 *       rather than answer from a shorter read.</li>
 * </ul>
 * Reads from the beginning each time. Not thread-safe: one reader per thread, closed by its owner.
 */
public final class CompactedTopicReader implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration AT_LEAST = Duration.ofMillis(1);

    private final TopicLog log;

    /**
     * @param clientConfigs consumer settings ({@code bootstrap.servers}, security, {@code client.id}; others are
     *                      left out); isolation, group, offsets and deserializers are set here
     * @param admin         the caller's admin client of the same cluster, for end offsets; not closed here
     */
    public CompactedTopicReader(Map<String, Object> clientConfigs, Admin admin) {
        this(new KafkaTopicLog(clientConfigs, admin));
    }

    CompactedTopicReader(TopicLog log) {
        this.log = log;
    }

    /** The partitions of {@code topic}; none when it does not exist. */
    public List<TopicPartition> partitionsOf(String topic, Duration timeout) {
        return log.partitionsFor(topic, timeout);
    }

    /**
     * The state of every key {@code format} keeps in {@code partitions}, read up to {@code end} taken now.
     *
     * @throws ReadHeldBackException      when a partition was not read up to its end by {@code deadline}
     * @throws UnreadableRecordException  when a record is not one {@code format} reads
     * @throws org.apache.kafka.common.KafkaException when the cluster cannot be read (an ACL, a missing partition),
     *                                    and whatever {@code format} throws besides IllegalArgumentException
     */
    public <V> Map<String, V> read(Collection<TopicPartition> partitions, ReadEnd end, KeyedFormat<V> format,
                                   Instant deadline) {
        Map<String, V> state = new HashMap<>();
        if (partitions.isEmpty()) {
            return state;
        }
        Map<TopicPartition, Long> ends = log.endOffsets(partitions, end.endOf(), remaining(deadline));
        List<TopicPartition> nonEmpty = partitions.stream().filter(p -> ends.getOrDefault(p, 0L) > 0).toList();
        if (nonEmpty.isEmpty()) {
            return state;
        }
        log.readFromBeginning(nonEmpty);
        for (Map<TopicPartition, Long> behind = behind(nonEmpty, ends, deadline); !behind.isEmpty();
             behind = behind(nonEmpty, ends, deadline)) {
            if (Instant.now().isAfter(deadline)) {
                throw new ReadHeldBackException(behind, ends, end);
            }
            for (ConsumerRecord<byte[], byte[]> record : log.poll(POLL)) {
                apply(state, record, format);
            }
        }
        return state;
    }

    /** Where the read stands in each partition not read up to its end yet. */
    private Map<TopicPartition, Long> behind(List<TopicPartition> partitions, Map<TopicPartition, Long> ends,
                                             Instant deadline) {
        Map<TopicPartition, Long> behind = new HashMap<>();
        for (TopicPartition partition : partitions) {
            long position = log.position(partition, remaining(deadline));
            if (position < ends.get(partition)) {
                behind.put(partition, position);
            }
        }
        return behind;
    }

    private static <V> void apply(Map<String, V> state, ConsumerRecord<byte[], byte[]> record,
                                  KeyedFormat<V> format) {
        if (record.key() == null) {
            return;
        }
        String key = new String(record.key(), StandardCharsets.UTF_8);
        String position = RecordPositions.of(record.topic(), record.partition(), record.offset());
        Optional<V> value;
        try {
            value = record.value() == null ? format.tombstone(key, position)
                    : format.read(key, record.value(), position);
        } catch (IllegalArgumentException e) {
            throw new UnreadableRecordException(position, e);
        }
        if (value.isPresent()) {
            state.put(key, value.get());
        } else {
            state.remove(key);
        }
    }

    private static Duration remaining(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        return left.compareTo(AT_LEAST) < 0 ? AT_LEAST : left;
    }

    @Override
    public void close() {
        log.close();
    }
}
