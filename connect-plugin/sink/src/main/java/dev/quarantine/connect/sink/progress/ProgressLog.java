package dev.quarantine.connect.sink.progress;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.txn.progress.CompactedTopicReader;
import dev.quarantine.txn.progress.ReadEnd;
import dev.quarantine.txn.progress.UnreadableRecordException;

/**
 * Reads the progress records ({@link ProgressRecord}) of partition 0 of the progress topic, the last per key, through
 * the project's one reader of compacted topics ({@link CompactedTopicReader}, which writes down the read's rules).
 *
 * <p>Where to stop: {@link ReadEnd#HIGH_WATERMARK}, the partition's high watermark as it stands once the partitions
 * being opened completed {@code initTransactions()} (which completes their predecessors' last transactions, whose
 * records are then below it). Not the last stable offset: an open transaction of any other partition holds that
 * back, so a committed record of ours above it would be missed; a read held back until the caller's deadline fails
 * retriably, naming the partition and the end. A tombstone (a reset through Connect's offsets API) leaves its key
 * without progress. An id's {@link CommitCompletion} (key {@code <id>/completed}) is returned with the id's progress
 * ({@link ProgressRecord#leftOpen}) while it stands. A record of ours this version does not read stops the task.
 */
final class ProgressLog implements AutoCloseable {

    private final Admin admin;
    private final Map<String, Object> consumerConfigs;
    private final ProgressTarget target;
    private CompactedTopicReader reader;

    ProgressLog(Admin admin, Map<String, Object> adminConfigs, ProgressTarget target) {
        this.admin = admin;
        this.consumerConfigs = new HashMap<>(adminConfigs);
        consumerConfigs.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, target.topic() + "-reader");
        this.target = target;
    }

    /**
     * The last record of each of {@code keys} that has one.
     *
     * @param sources the source partitions being read, for messages
     * @throws RetriableException when the records up to the high watermark could not be read by {@code deadline}
     * @throws ConnectException   when a record of ours is not one this version reads, or was written into an
     *                            earlier topic of that name
     */
    Map<String, ProgressRecord> read(Set<String> keys, Uuid topicId, Iterable<TopicPartition> sources,
                                     Instant deadline) {
        return read(keys::contains, topicId, sources, deadline);
    }

    /** As {@link #read(Set, Uuid, Iterable, Instant)}, of every key {@code ours} accepts. */
    Map<String, ProgressRecord> read(Predicate<String> ours, Uuid topicId, Iterable<TopicPartition> sources,
                                     Instant deadline) {
        Map<String, Kept> read;
        try {
            read = reader().read(List.of(target.partition()), ReadEnd.HIGH_WATERMARK,
                    (key, value, position) -> kept(key, value, position, ours, topicId, sources), deadline);
        } catch (UnreadableRecordException e) {
            throw new ConnectException(e.getMessage() + ". The task stops rather than guess where to resume or lose"
                    + " sight of a committed transaction left open", e);
        }
        Map<String, ProgressRecord> progress = new HashMap<>();
        read.forEach((key, kept) -> kept.progress().ifPresent(p -> progress.put(key, p)));
        read.forEach((key, kept) -> kept.completion().ifPresent(completion -> CommitCompletion.idOf(key).ifPresent(
                id -> progress.computeIfPresent(id, (k, p) -> p.withLeftOpen(completion)))));
        return progress;
    }

    /** A record of ours kept by a read: an id's progress, or an id's completion record (keyed {@code <id>/completed}). */
    private record Kept(Optional<ProgressRecord> progress, Optional<CommitCompletion> completion) {
    }

    private Optional<Kept> kept(String key, byte[] value, String position, Predicate<String> ours, Uuid topicId,
                                Iterable<TopicPartition> sources) {
        Optional<String> completed = CommitCompletion.idOf(key);
        if (completed.isPresent() && ours.test(completed.get())) {
            try {
                return Optional.of(new Kept(Optional.empty(), Optional.of(CommitCompletion.parse(value))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not a completion record: " + e.getMessage(), e);
            }
        }
        if (completed.isPresent() || !ours.test(key)) {
            return Optional.empty();
        }
        ProgressRecord progress;
        try {
            progress = ProgressRecord.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a progress record: " + e.getMessage(), e);
        }
        if (!progress.topicId().equals(topicId)) {
            throw target.recreated(sources, "the record " + position + " was written when the topic had id "
                    + progress.topicId() + ", and it now has " + topicId);
        }
        return Optional.of(new Kept(Optional.of(progress), Optional.empty()));
    }

    /** The key of a partition's progress records: its transactional id, UTF-8. */
    static byte[] key(String transactionalId) {
        return transactionalId.getBytes(StandardCharsets.UTF_8);
    }

    private CompactedTopicReader reader() {
        if (reader == null) {
            reader = new CompactedTopicReader(consumerConfigs, admin);
        }
        return reader;
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
