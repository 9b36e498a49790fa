package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

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
 */
final class ProgressStore implements AutoCloseable {

    private final Admin admin;
    private final Map<String, Object> consumerConfigs;
    private final TopicPartition progressPartition;
    private final Duration timeout;

    ProgressStore(Map<String, Object> adminConfigs, String progressTopic, Duration timeout) {
        this.admin = Admin.create(adminConfigs);
        this.consumerConfigs = new HashMap<>(adminConfigs);
        this.progressPartition = new TopicPartition(progressTopic, 0);
        this.timeout = timeout;
    }

    TopicPartition progressPartition() {
        return progressPartition;
    }

    /** The committed next offset of each group that has one; groups without progress are absent. */
    Map<String, Long> read(Set<String> groups) {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        groups.forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(progressPartition))));
        Map<String, Long> progress = new HashMap<>();
        if (specs.isEmpty()) {
            return progress;
        }
        var result = admin.listConsumerGroupOffsets(specs, new ListConsumerGroupOffsetsOptions().requireStable(true)
                .timeoutMs((int) timeout.toMillis()));
        for (String group : groups) {
            Optional<Long> offset = fromAdmin(result.partitionsToOffsetAndMetadata(group), group);
            if (offset.isEmpty()) {
                offset = confirmWithConsumer(group);
            }
            offset.ifPresent(o -> progress.put(group, o));
        }
        return progress;
    }

    private Optional<Long> fromAdmin(org.apache.kafka.common.KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> future,
                                     String group) {
        try {
            OffsetAndMetadata offset = future.get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(progressPartition);
            return Optional.ofNullable(offset).map(OffsetAndMetadata::offset);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while reading the progress of group " + group, e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new RetriableException("Could not read the progress of group " + group + " on the target cluster"
                    + " within " + timeout.toSeconds() + " s", e.getCause() == null ? e : e.getCause());
        }
    }

    private Optional<Long> confirmWithConsumer(String group) {
        Map<String, Object> configs = new HashMap<>(consumerConfigs);
        configs.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        configs.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        configs.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-progress-reader");
        configs.keySet().retainAll(ConsumerConfig.configNames());
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(configs, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            OffsetAndMetadata offset = consumer.committed(Set.of(progressPartition), timeout).get(progressPartition);
            return Optional.ofNullable(offset).map(OffsetAndMetadata::offset);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new RetriableException("The progress of group " + group + " stayed pending (a transaction not"
                    + " completed) for " + timeout.toSeconds() + " s; not guessing a starting offset", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
