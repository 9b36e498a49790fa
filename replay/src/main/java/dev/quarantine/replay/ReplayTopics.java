package dev.quarantine.replay;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The topics around a replay, through its admin client: the dead-letter topic's id, the progress topic (created,
 * checked and read: every replay's latest progress) and the parking topic (created).
 */
final class ReplayTopics implements AutoCloseable {

    private final ReplayConfig config;
    private final Admin admin;

    /** @throws org.apache.kafka.common.config.ConfigException from the admin client's own settings */
    ReplayTopics(ReplayConfig config) {
        this.config = config;
        this.admin = Admin.create(ReplayClients.known(config.clientConfigs(), AdminClientConfig.configNames()));
    }

    /** Per partition of {@code partitions}, its read_committed end offset. */
    Map<Integer, Long> committedEnds(List<TopicPartition> partitions) {
        Map<Integer, Long> end = new HashMap<>();
        ReplayClients.endOffsets(admin, partitions, IsolationLevel.READ_COMMITTED, config.progressReadTimeout())
                .forEach((tp, offset) -> end.put(tp.partition(), offset));
        return end;
    }

    /** The partition counts of destination topics, through this admin client. */
    PartitionCountCache partitionCounts() {
        return new PartitionCountCache(admin, config.progressReadTimeout());
    }

    /** Creates the progress and parking topics when missing, and checks the progress topic's shape. */
    void prepare(int dlqPartitions) {
        createProgressTopic();
        ReplayClients.createIfMissing(admin, new NewTopic(config.parkingTopic(), Optional.of(dlqPartitions),
                Optional.empty()), ReplayConfig.PARKING_TOPIC_CONFIG, config.progressReadTimeout());
        ReplayClients.requireProgressTopic(admin, config.progressTopic(), config.progressReadTimeout());
    }

    /** Creates the progress topic when missing: one partition, compacted. */
    void createProgressTopic() {
        ReplayClients.createIfMissing(admin, new NewTopic(config.progressTopic(), Optional.of(1), Optional.empty())
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)),
                ReplayConfig.PROGRESS_TOPIC_CONFIG, config.progressReadTimeout());
    }

    /** @throws UnknownTopicOrPartitionException when the dead-letter topic does not exist */
    Uuid dlqTopicId() {
        return ReplayClients.topicId(admin, config.dlqTopic(), config.progressReadTimeout());
    }

    /** The id of the topic by the dead-letter topic's name now; empty when there is none. */
    Optional<Uuid> dlqTopicIdNow() {
        try {
            return Optional.of(dlqTopicId());
        } catch (UnknownTopicOrPartitionException e) {
            return Optional.empty();
        }
    }

    /**
     * The latest progress of every replay in the progress topic; with {@code othersRanges}, the other replays of this
     * dead-letter topic with their sealed written ranges (at most {@code replay.written.ranges.max}); with
     * {@code await} (a write), after waiting for the transactions open on it to end (this replay's own older instance
     * is fenced by then), else (a dry run) without waiting. This replay's own sealed ranges are never read back: it
     * needs only their count.
     */
    Map<String, ReplayProgress> readReplays(boolean othersRanges, boolean await) {
        Optional<ReplayProgressReader.ReadBack> readBack = othersRanges ? Optional.of(new ReplayProgressReader.ReadBack(
                config.dlqTopic(), config.replayId(), config.writtenRangesMax())) : Optional.empty();
        try (ReplayProgressReader reader = new ReplayProgressReader(config.clientConfigs(), config.progressTopic(),
                config.progressReadTimeout())) {
            return await ? reader.awaitAll(readBack) : reader.allNow(readBack);
        }
    }

    /** The state of the last transaction of {@code transactionalId} as its coordinator holds it. */
    TransactionState transactionState(String transactionalId) {
        return ReplayClients.await(admin.describeTransactions(List.of(transactionalId)).description(transactionalId),
                config.progressReadTimeout(), "describe the transaction of " + transactionalId).state();
    }

    @Override
    public void close() {
        admin.close();
    }
}
