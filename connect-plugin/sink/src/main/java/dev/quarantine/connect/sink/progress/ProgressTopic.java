package dev.quarantine.connect.sink.progress;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;

/**
 * Creates the connector's progress topic on the target cluster when the connector starts and the topic is missing,
 * as Connect creates its internal topics: two partitions (partition 0 the progress, {@link ProgressRecord};
 * partition 1 the claims of source partitions by tasks, {@link OwnershipRecord}), compacted, replication factor
 * progress.topic.replication.factor (default: the cluster's). An existing topic with fewer partitions is refused by
 * validation ({@link #partitionProblem}), naming the command that adds one. Every transaction adds one small record
 * to it, so its segments are small and rolled often ({@link #SETTINGS}): the cleaner can only compact closed
 * segments, and a task reads the topic from its beginning when it opens partitions, so the readable log stays about
 * one record per source partition plus a few MiB at most. A topic created by hand (compacted, default segments) works as it is;
 * {@code kafka-configs.sh --alter} with these settings makes it as small to read.
 */
public final class ProgressTopic {

    private static final Logger log = LoggerFactory.getLogger(ProgressTopic.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /**
     * Compacted, 1 MiB segments rolled at least every 10 minutes, and compaction once a tenth of the log is
     * superseded records (the default waits for half): at about 200 bytes per transaction (record and commit
     * marker), a segment of a busy connector closes within seconds, and one of a quiet connector within minutes.
     */
    static final Map<String, String> SETTINGS = Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
            TopicConfig.SEGMENT_BYTES_CONFIG, String.valueOf(1024 * 1024),
            TopicConfig.SEGMENT_MS_CONFIG, String.valueOf(Duration.ofMinutes(10).toMillis()),
            TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.1");

    /** Partition 0 holds the progress, partition 1 the claims. */
    public static final int PARTITIONS = 2;

    private ProgressTopic() {
    }

    /**
     * The task's failure when the progress topic {@code topic} is gone (deleted, and the progress of {@code lost} with
     * it): the one wording for every place that finds it missing (a task's start, a read of the claims or progress, a
     * commit that failed).
     */
    public static ConnectException missing(String topic, String lost) {
        return new ConnectException("The progress topic " + topic + " does not exist on the target cluster: it was"
                + " deleted, and the progress of " + lost + " with it. The task stops rather than guess where to"
                + " resume. To go on, restart the connector (it creates " + topic + " again) or create it ("
                + PARTITIONS + " partitions, cleanup.policy=compact), then restart the task: its partitions resume"
                + " from Connect's own committed offsets, which can repeat records written since Connect's last"
                + " offset commit");
    }

    /** Creates the progress topic of {@code config} unless it exists. */
    public static void createIfMissing(TransactionalSinkConfig config) {
        String topic = config.progressTopic();
        Map<String, Object> adminConfigs = config.adminConfigs();
        try (Admin admin = Admin.create(adminConfigs)) {
            if (exists(admin, topic)) {
                return;
            }
            Optional<Short> replicationFactor = config.progressTopicReplicationFactor();
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(PARTITIONS), replicationFactor)
                    .configs(SETTINGS)))
                    .all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            log.info("Created the progress topic {} on the target cluster ({} partitions, {}, replication factor {})",
                    topic, PARTITIONS, SETTINGS,
                    replicationFactor.map(String::valueOf).orElse("the cluster's default"));
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw failure(topic, e.getCause());
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw failure(topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while creating the progress topic " + topic, e);
        }
    }

    /**
     * What is wrong with the progress topic of {@code config} as it exists on the target cluster, for
     * {@code progress.topic.name}: fewer than {@link #PARTITIONS} partitions. Empty when it has enough, or does not
     * exist (the connector creates it at start).
     */
    public static Optional<String> partitionProblem(Admin admin, TransactionalSinkConfig config, Duration timeout)
            throws ExecutionException, InterruptedException, java.util.concurrent.TimeoutException {
        String topic = config.progressTopic();
        try {
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic).partitions().size();
            return partitionProblem(topic, partitions);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The problem of a progress topic {@code topic} with {@code partitions} partitions, if any. */
    static Optional<String> partitionProblem(String topic, int partitions) {
        if (partitions >= PARTITIONS) {
            return Optional.empty();
        }
        return Optional.of("names the progress topic " + topic + ", which has " + partitions + " partition"
                + (partitions == 1 ? "" : "s") + "; the connector needs " + PARTITIONS + " (partition 0 for the"
                + " progress, partition 1 for the claims of source partitions by tasks). Add one with kafka-topics.sh"
                + " --alter --topic " + topic + " --partitions " + PARTITIONS + " (the progress on partition 0 stays),"
                + " or name another topic");
    }

    private static boolean exists(Admin admin, String topic) throws ExecutionException, InterruptedException,
            java.util.concurrent.TimeoutException {
        try {
            admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false;
            }
            throw e;
        }
    }

    private static ConnectException failure(String topic, Throwable cause) {
        return new ConnectException("Could not create the progress topic " + topic + " on the target cluster: "
                + cause + ". Check " + TransactionalSinkConfig.TARGET_BOOTSTRAP_SERVERS_CONFIG + ", "
                + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "* (Create on the topic) and "
                + TransactionalSinkConfig.PROGRESS_TOPIC_REPLICATION_FACTOR_CONFIG + ", or create it (" + PARTITIONS
                + " partitions, cleanup.policy=compact) and name it with " + TransactionalSinkConfig.PROGRESS_TOPIC_NAME_CONFIG,
                cause);
    }
}
