package dev.quarantine.connect.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Reads the connector's progress from the target cluster: for each source partition, the offsets of its group
 * ({@code <prefix>.<topic>-<partition>}) for partition 0 of the progress topic, committed in the same transactions
 * as the output.
 *
 * <p>A missing offset is ambiguous: {@code Admin.listConsumerGroupOffsets} with {@code requireStable} leaves out a
 * partition whose offset commit is still pending in a transaction, exactly as if it were never committed. Treating
 * a pending commit as "none" restarts the partition from Connect's own (older) offsets, a duplicate. So a missing
 * offset is confirmed with a {@code read_committed} consumer of that group, whose {@code committed()} waits while
 * the commit is pending (UNSTABLE_OFFSET_COMMIT is retried) and answers null only when there is none. Callers read
 * after the partition's producer has completed {@code initTransactions()}, which finishes any transaction its
 * predecessor left, so the wait is short.
 *
 * <p>Unknown progress is never "no progress": a read that fails transiently is retried until
 * {@code progress.read.timeout.ms}, then fails the task; a progress topic that does not exist (deleted, and the
 * progress with it) fails it at once.
 */
final class ProgressStore implements AutoCloseable {

    private static final Duration RETRY_BACKOFF = Duration.ofMillis(500);
    /**
     * How many missing offsets are confirmed at the same time: each needs a consumer of its own group (a first start
     * has none for any partition), whose set-up and coordinator look-up are round trips, not CPU.
     */
    static final int CONFIRM_PARALLELISM = 8;

    private final Admin admin;
    private final Map<String, Object> consumerConfigs;
    private final TopicPartition progressPartition;
    private final LegacyProgress legacy;
    private final Duration timeout;

    /**
     * @param legacyTopic where earlier versions kept the progress (the dead-letter topic), read once for a partition
     *                    the progress topic holds nothing for
     */
    ProgressStore(Map<String, Object> adminConfigs, String progressTopic, Optional<String> legacyTopic,
                  Duration timeout) {
        this.admin = Admin.create(adminConfigs);
        this.consumerConfigs = new HashMap<>(adminConfigs);
        this.progressPartition = new TopicPartition(progressTopic, 0);
        this.legacy = new LegacyProgress(admin, progressPartition, legacyTopic, timeout);
        this.timeout = timeout;
    }

    TopicPartition progressPartition() {
        return progressPartition;
    }

    /**
     * The committed next offset of each group that has one; groups without progress are absent.
     *
     * @param groups     the groups to read, each with the source partition whose progress it holds (for messages)
     * @param confirmers threads that confirm missing offsets, {@link #CONFIRM_PARALLELISM} groups at a time
     * @throws ConnectException when the progress topic does not exist, or the progress could not be read within
     *                          progress.read.timeout.ms; never answers "no progress" for progress it could not read
     */
    Map<String, Long> read(Map<String, TopicPartition> groups, Executor confirmers) {
        if (groups.isEmpty()) {
            return Map.of();
        }
        requireTopic(groups.values());
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            try {
                Map<String, Long> progress = readOnce(groups.keySet(), deadline, confirmers);
                legacy.fillIn(groups.keySet(), progress);
                return progress;
            } catch (RetriableException e) {
                if (Instant.now().plus(RETRY_BACKOFF).isAfter(deadline)) {
                    throw new ConnectException("Could not read the progress of " + groups.values() + " (groups "
                            + groups.keySet() + ") from the target cluster within "
                            + TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG + "=" + timeout.toMillis()
                            + "; not guessing a starting offset, the task stops. Check the target cluster, or raise "
                            + TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG, e);
                }
                pause();
            }
        }
    }

    /**
     * Fails when the progress topic does not exist (deleted, and with it every group's offsets for it); returns
     * when it exists or cannot be described just now (the caller's own error then stands).
     */
    void requireTopic(Iterable<TopicPartition> partitions) {
        try {
            admin.describeTopics(List.of(progressPartition.topic())).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw missingTopic(partitions);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            // not known to be missing: the caller's own outcome stands
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while checking the progress topic", e);
        }
    }

    private ConnectException missingTopic(Iterable<TopicPartition> partitions) {
        String topic = progressPartition.topic();
        return new ConnectException("The progress topic " + topic + " does not exist on the target cluster: it was"
                + " deleted, and the progress of " + partitions + " with it. The task stops rather than guess where"
                + " to resume. To go on, restart the connector (it creates " + topic + " again) or create it (one"
                + " partition, cleanup.policy=compact), then restart the task: its partitions resume from Connect's"
                + " own committed offsets, which can repeat records written since Connect's last offset commit");
    }

    private Map<String, Long> readOnce(Set<String> groups, Instant deadline, Executor confirmers) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        groups.forEach(g -> specs.put(g,
                new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(progressPartition))));
        Duration remaining = remaining(deadline);
        var result = admin.listConsumerGroupOffsets(specs, new ListConsumerGroupOffsetsOptions().requireStable(true)
                .timeoutMs((int) remaining.toMillis()));
        Map<String, Long> progress = new HashMap<>();
        List<String> unconfirmed = new ArrayList<>();
        for (String group : groups) {
            fromAdmin(result.partitionsToOffsetAndMetadata(group), group, deadline)
                    .ifPresentOrElse(o -> progress.put(group, o), () -> unconfirmed.add(group));
        }
        BoundedParallel.Outcome<String, Optional<Long>> confirmed = BoundedParallel.run(unconfirmed,
                CONFIRM_PARALLELISM, confirmers, group -> confirmWithConsumer(group, deadline));
        confirmed.failure(e -> !(e instanceof RetriableException)).ifPresent(e -> {
            throw e;
        });
        confirmed.done().forEach((group, offset) -> offset.ifPresent(o -> progress.put(group, o)));
        return progress;
    }

    private Optional<Long> fromAdmin(KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> future, String group,
                                     Instant deadline) {
        try {
            OffsetAndMetadata offset = future.get(remaining(deadline).toMillis(), TimeUnit.MILLISECONDS)
                    .get(progressPartition);
            return Optional.ofNullable(offset).map(OffsetAndMetadata::offset);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while reading the progress of group " + group, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Reading the progress of group " + group + " timed out", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw retriable;
            }
            throw new ConnectException("Could not read the progress of group " + group + " on the target cluster"
                    + " (check the ACLs of target.admin.*: Describe and Read on the group)", e.getCause());
        }
    }

    private Optional<Long> confirmWithConsumer(String group, Instant deadline) {
        Map<String, Object> configs = new HashMap<>(consumerConfigs);
        configs.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        configs.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        configs.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-progress-reader");
        configs.keySet().retainAll(ConsumerConfig.configNames());
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(configs, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            OffsetAndMetadata offset = consumer.committed(Set.of(progressPartition), remaining(deadline))
                    .get(progressPartition);
            return Optional.ofNullable(offset).map(OffsetAndMetadata::offset);
        }
    }

    private static Duration remaining(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        return left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left;
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_BACKOFF.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while reading the progress", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
