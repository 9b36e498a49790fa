package dev.quarantine.connect.sink;

import java.time.Duration;
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
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves progress from where earlier versions kept it by default (partition 0 of the dead-letter topic) to the
 * progress topic, once per group: when the progress topic holds nothing for a group and the old place holds an
 * offset, the offset is committed for the progress topic first, then deleted from the old place.
 *
 * <p>Why this cannot cause duplicates: the old place is only read while the new one holds nothing, and after the
 * move it holds nothing itself, so an old offset can never be read again later (say after the progress topic was
 * deleted) and rewind a partition. The move runs after the partition's producer completed
 * {@code initTransactions()}, so no transaction of the group is pending; the groups have no members, so the admin
 * client may commit and delete their offsets. A crash between the two steps leaves both, and the new one wins.
 */
final class LegacyProgress {

    private static final Logger log = LoggerFactory.getLogger(LegacyProgress.class);

    private final Admin admin;
    private final TopicPartition progressPartition;
    private final Optional<TopicPartition> legacyPartition;
    private final Duration timeout;

    LegacyProgress(Admin admin, TopicPartition progressPartition, Optional<String> legacyTopic, Duration timeout) {
        this.admin = admin;
        this.progressPartition = progressPartition;
        this.legacyPartition = legacyTopic.filter(t -> !t.equals(progressPartition.topic()))
                .map(t -> new TopicPartition(t, 0));
        this.timeout = timeout;
    }

    /** Adds to {@code progress} the moved offset of every group in {@code groups} that has none there. */
    void fillIn(Set<String> groups, Map<String, Long> progress) {
        if (legacyPartition.isEmpty()) {
            return;
        }
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        groups.stream().filter(g -> !progress.containsKey(g)).forEach(g -> specs.put(g,
                new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(legacyPartition.get()))));
        if (specs.isEmpty()) {
            return;
        }
        try {
            var result = admin.listConsumerGroupOffsets(specs, new ListConsumerGroupOffsetsOptions()
                    .requireStable(true).timeoutMs((int) timeout.toMillis()));
            for (String group : specs.keySet()) {
                OffsetAndMetadata old = result.partitionsToOffsetAndMetadata(group)
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(legacyPartition.get());
                if (old != null) {
                    move(group, old);
                    progress.put(group, old.offset());
                }
            }
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Could not move the progress from "
                    + legacyPartition.get() + " to " + progressPartition, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while moving the progress", e);
        }
    }

    private void move(String group, OffsetAndMetadata old) throws ExecutionException, InterruptedException,
            java.util.concurrent.TimeoutException {
        admin.alterConsumerGroupOffsets(group, Map.of(progressPartition, old)).all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        admin.deleteConsumerGroupOffsets(group, Set.of(legacyPartition.get())).all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        log.info("Moved the progress of group {} ({}) from {}, where earlier versions kept it, to {}", group,
                old.offset(), legacyPartition.get(), progressPartition);
    }
}
