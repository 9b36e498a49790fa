package dev.quarantine.connect.sink.progress;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.txn.RecordPositions;

/**
 * Reads the progress records ({@link ProgressRecord}) of partition 0 of the progress topic, the last per key.
 *
 * <p>Where to stop: at the partition's high watermark as it stands once the partitions being opened completed
 * {@code initTransactions()} (which completes their predecessors' last transactions, whose records are then below
 * it). Not at the consumer's end offset: under {@code read_committed} that is the last stable offset, which an open
 * transaction of any other partition holds back, so a committed record of ours above it would be missed. The
 * consumer reads ({@code read_committed}, aborted records left out) until its position passes that high watermark,
 * waiting while open transactions hold it back, until the caller's deadline. A tombstone (a reset through Connect's
 * offsets API) leaves its key without progress. An id's {@link CommitCompletion} (key {@code <id>/completed}) is
 * returned with the id's progress ({@link ProgressRecord#leftOpen}) while it stands.
 */
final class ProgressLog implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(200);

    private final Admin admin;
    private final Map<String, Object> consumerConfigs;
    private final ProgressTarget target;
    private KafkaConsumer<byte[], byte[]> consumer;

    ProgressLog(Admin admin, Map<String, Object> adminConfigs, ProgressTarget target) {
        this.admin = admin;
        this.consumerConfigs = consumerConfigs(adminConfigs, target);
        this.target = target;
    }

    private static Map<String, Object> consumerConfigs(Map<String, Object> adminConfigs, ProgressTarget target) {
        Map<String, Object> configs = new HashMap<>(adminConfigs);
        configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        configs.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        configs.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        configs.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, target.topic() + "-reader");
        configs.remove(ConsumerConfig.GROUP_ID_CONFIG);
        configs.keySet().retainAll(ConsumerConfig.configNames());
        return configs;
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
        long end = highWatermark(deadline);
        Map<String, ProgressRecord> progress = new HashMap<>();
        if (end == 0) {
            return progress;
        }
        Map<String, CommitCompletion> completions = new HashMap<>();
        KafkaConsumer<byte[], byte[]> reader = consumer();
        reader.seekToBeginning(List.of(target.partition()));
        while (reader.position(target.partition(), remaining(deadline)) < end) {
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException("Read " + target.partition() + " up to offset "
                        + reader.position(target.partition()) + " of " + end + " (a transaction still open there"
                        + " holds the rest back)");
            }
            for (ConsumerRecord<byte[], byte[]> record : reader.poll(POLL)) {
                String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
                Optional<String> completed = key == null ? Optional.empty() : CommitCompletion.idOf(key);
                if (completed.isPresent() && ours.test(completed.get())) {
                    completion(record, completed.get(), completions);
                    continue;
                }
                if (key == null || !ours.test(key)) {
                    continue;
                }
                if (record.value() == null) {
                    progress.remove(key); // a reset through Connect's offsets API (see ProgressReset)
                } else {
                    progress.put(key, parse(record, topicId, sources));
                }
            }
        }
        completions.forEach((id, completion) -> progress.computeIfPresent(id, (k, p) -> p.withLeftOpen(completion)));
        return progress;
    }

    /** Keeps the completion {@code record} of {@code id} (see {@link CommitCompletion}); a tombstone clears it. */
    private static void completion(ConsumerRecord<byte[], byte[]> record, String id,
                                   Map<String, CommitCompletion> completions) {
        if (record.value() == null) {
            completions.remove(id);
            return;
        }
        try {
            completions.put(id, CommitCompletion.parse(record.value()));
        } catch (IllegalArgumentException e) {
            throw new ConnectException("The completion record " + RecordPositions.of(record.topic(),
                    record.partition(), record.offset()) + " cannot be read: " + e.getMessage() + ". The task stops"
                    + " rather than lose sight of a committed transaction left open", e);
        }
    }

    private ProgressRecord parse(ConsumerRecord<byte[], byte[]> record, Uuid topicId,
                                 Iterable<TopicPartition> sources) {
        String position = RecordPositions.of(record.topic(), record.partition(), record.offset());
        ProgressRecord progress;
        try {
            progress = ProgressRecord.parse(record.value());
        } catch (IllegalArgumentException e) {
            throw new ConnectException("The progress record " + position + " cannot be read: " + e.getMessage()
                    + ". The task stops rather than guess where to resume", e);
        }
        if (!progress.topicId().equals(topicId)) {
            throw target.recreated(sources, "the record " + position + " was written when the topic had id "
                    + progress.topicId() + ", and it now has " + topicId);
        }
        return progress;
    }

    private long highWatermark(Instant deadline) {
        try {
            return admin.listOffsets(Map.of(target.partition(), OffsetSpec.latest()),
                            new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                    .partitionResult(target.partition())
                    .get(remaining(deadline).toMillis(), TimeUnit.MILLISECONDS).offset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while reading the progress", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Could not find the end of " + target.partition() + " in time", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw retriable;
            }
            throw new ConnectException("Could not find the end of " + target.partition() + " (check the ACLs of "
                    + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "*: Describe and Read on the topic)",
                    e.getCause());
        }
    }

    /** The key of a partition's progress records: its transactional id, UTF-8. */
    static byte[] key(String transactionalId) {
        return transactionalId.getBytes(StandardCharsets.UTF_8);
    }

    private static Duration remaining(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        return left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            consumer = new KafkaConsumer<>(consumerConfigs, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            consumer.assign(List.of(target.partition()));
        }
        return consumer;
    }

    @Override
    public void close() {
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(5));
            consumer = null;
        }
    }
}
