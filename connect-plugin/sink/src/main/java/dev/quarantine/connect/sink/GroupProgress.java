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
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads progress as versions before the progress record kept it: the offset of the group {@code <prefix>.<topic>-
 * <partition>} (the transactional id) for partition 0 of the progress topic, committed with
 * {@code sendOffsetsToTransaction}. Read only for a partition the progress topic holds no record for: once a
 * partition committed a record, the record is always there while the topic is (compaction keeps the last record
 * of each key, and the topic has no retention), and it is newer than the group's offset, so the group is never
 * read again for it and cannot rewind it. The groups are left to expire (offsets.retention.minutes).
 *
 * <p>A missing offset is ambiguous: {@code Admin.listConsumerGroupOffsets} with {@code requireStable} leaves out a
 * partition whose offset commit is still pending in a transaction, exactly as if it were never committed. So a
 * missing offset is confirmed with a {@code read_committed} consumer of that group, whose {@code committed()} waits
 * while the commit is pending and answers null only when there is none. Callers read after the partition's
 * producer has completed {@code initTransactions()}, which finishes any transaction its predecessor left.
 *
 * <p>A principal not allowed to read the groups (a connector set up with this version's ACLs) has no progress in
 * them: that is logged and read as none.
 */
final class GroupProgress {

    private static final Logger log = LoggerFactory.getLogger(GroupProgress.class);
    /** How many missing offsets are confirmed at the same time, each with a consumer of its own group. */
    static final int CONFIRM_PARALLELISM = 8;

    private final Admin admin;
    private final Map<String, Object> consumerConfigs;
    private final TopicPartition progressPartition;

    GroupProgress(Admin admin, Map<String, Object> consumerConfigs, TopicPartition progressPartition) {
        this.admin = admin;
        this.consumerConfigs = consumerConfigs;
        this.progressPartition = progressPartition;
    }

    /** The committed offset of each of {@code groups} that has one. */
    Map<String, Long> read(Set<String> groups, Instant deadline, Executor confirmers) {
        if (groups.isEmpty()) {
            return Map.of();
        }
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        groups.forEach(g -> specs.put(g,
                new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(progressPartition))));
        var result = admin.listConsumerGroupOffsets(specs, new ListConsumerGroupOffsetsOptions().requireStable(true)
                .timeoutMs((int) remaining(deadline).toMillis()));
        Map<String, Long> progress = new HashMap<>();
        List<String> unconfirmed = new ArrayList<>();
        for (String group : groups) {
            Optional<Optional<Long>> offset = fromAdmin(result.partitionsToOffsetAndMetadata(group), group, deadline);
            offset.ifPresent(o -> o.ifPresentOrElse(n -> progress.put(group, n), () -> unconfirmed.add(group)));
        }
        BoundedParallel.Outcome<String, Optional<Long>> confirmed = BoundedParallel.run(unconfirmed,
                CONFIRM_PARALLELISM, confirmers, group -> confirmWithConsumer(group, deadline));
        confirmed.failure(e -> !(e instanceof RetriableException)).ifPresent(e -> {
            throw e;
        });
        confirmed.done().forEach((group, offset) -> offset.ifPresent(o -> progress.put(group, o)));
        return progress;
    }

    /** The group's offset, empty inside when it has none; empty when the group may not be read (none there). */
    private Optional<Optional<Long>> fromAdmin(KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> future,
                                               String group, Instant deadline) {
        try {
            OffsetAndMetadata offset = future.get(remaining(deadline).toMillis(), TimeUnit.MILLISECONDS)
                    .get(progressPartition);
            return Optional.of(Optional.ofNullable(offset).map(OffsetAndMetadata::offset));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while reading the progress of group " + group, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Reading the progress of group " + group + " timed out", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw retriable;
            }
            if (e.getCause() instanceof GroupAuthorizationException) {
                log.info("No progress record for {} in {}, and group {} (where earlier versions kept progress)"
                        + " may not be read: resuming it as a partition without progress", group,
                        progressPartition, group);
                return Optional.empty();
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

    static Duration remaining(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        return left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left;
    }
}
