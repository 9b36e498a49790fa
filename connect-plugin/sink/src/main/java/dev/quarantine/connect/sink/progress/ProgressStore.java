package dev.quarantine.connect.sink.progress;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;

/**
 * Reads the connector's progress from the target cluster, for each source partition (keyed by its transactional
 * id): its last progress record in partition 0 of the progress topic ({@link ProgressLog}); a partition without
 * one has no progress. Callers read after the partitions' producers completed {@code initTransactions()}.
 *
 * <p>Unknown progress is never "no progress": a read that fails transiently is retried until
 * {@code progress.read.timeout.ms}, then fails with a RetriableException (the task tries again, until
 * {@code transient.errors.timeout.ms}); a progress topic that does not exist (deleted, and the
 * progress with it), was created again since the task started, or is not compacted (a topic the broker created on
 * a send after it was deleted has the broker's defaults, and retention would delete progress) fails it at once.
 */
public final class ProgressStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProgressStore.class);
    private static final Duration RETRY_BACKOFF = Duration.ofMillis(500);
    /** How often the progress topic's id is checked while the task runs (see {@link #watch()}). */
    public static final Duration WATCH_INTERVAL = Duration.ofSeconds(10);

    private final Admin admin;
    private final ProgressTarget target;
    private final ProgressLog records;
    private final SourceTopics sourceTopics;
    private final Duration timeout;
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "progress-topic-watcher");
        thread.setDaemon(true);
        return thread;
    });

    /** @param sourceTopics the source topics' ids, to tell a topic created again from the one progress was of */
    public ProgressStore(Map<String, Object> adminConfigs, String progressTopic, SourceTopics sourceTopics,
                  Duration timeout) {
        this.admin = Admin.create(adminConfigs);
        this.target = new ProgressTarget(progressTopic);
        this.records = new ProgressLog(admin, adminConfigs, target);
        this.sourceTopics = sourceTopics;
        this.timeout = timeout;
        watcher.scheduleWithFixedDelay(this::watch, WATCH_INTERVAL.toMillis(), WATCH_INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * While the task only writes, nothing else would notice the progress topic created again (a broker with
     * auto.create.topics.enable=true does it at a writer's send): once its id is found changed, every writer's next
     * progress record fails its transaction, naming the topic. A topic missing or not described in time is left to
     * the writes, which fail on their own.
     */
    private void watch() {
        try {
            Uuid id = admin.describeTopics(List.of(target.topic())).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(target.topic()).topicId();
            if (target.replacedBy(id)) {
                watcher.shutdown();
            }
        } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            // missing, or not described in time: the writes and the next read decide
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Where the task's writers put their progress records. */
    public ProgressTarget target() {
        return target;
    }

    /**
     * The committed progress of each partition that has some; partitions without progress are absent. A partition
     * whose source topic has another id than its progress was written for (deleted and created again with the same
     * name) starts over: its next offset is where the new topic starts (see {@link SourceTopics#startOffset}), logged
     * at WARN naming the topic unless this task already logged it starting over there. Registers with
     * {@link #target()} what the partitions' progress records carry.
     *
     * @param sources the partitions to read, by transactional id
     * @throws ConnectException when the progress topic does not exist, or the progress could not be read within
     *                          progress.read.timeout.ms; never answers "no progress" for progress it could not read
     */
    public Map<String, ProgressRecord> read(Map<String, TopicPartition> sources) {
        if (sources.isEmpty()) {
            return Map.of();
        }
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            try {
                return readOnce(sources, deadline);
            } catch (RetriableException e) {
                if (Instant.now().plus(RETRY_BACKOFF).isAfter(deadline)) {
                    // transient (an unreachable cluster, another writer's transaction holding the read back):
                    // the partitions are opened again when their records are delivered, as any transient failure
                    throw new org.apache.kafka.connect.errors.RetriableException(unread(sources, e), e);
                }
                pause();
            } catch (KafkaException e) {
                if (e instanceof ConnectException) {
                    throw e;
                }
                throw new ConnectException("Could not read the progress of " + sources.values() + " from "
                        + target.partition() + " (check the ACLs of " + TransactionalSinkConfig.TARGET_ADMIN_PREFIX
                        + "*: Describe, DescribeConfigs and Read on the topic " + target.topic() + ")", e);
            }
        }
    }

    /**
     * Why the progress of {@code sources} is not known yet, naming the cluster that did not answer: the target cluster
     * holds the progress, the source cluster the topics whose re-creation is checked.
     */
    private String unread(Map<String, TopicPartition> sources, RetriableException e) {
        String asked = e instanceof SourceTopics.Unanswered unanswered ? unanswered.cluster() : null;
        return "Could not " + (asked != null ? "check the source topics of " + sources.values() + " on " + asked
                : "read the progress of " + sources.values() + " (keys " + sources.keySet() + ") from the target"
                + " cluster") + " within " + TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG + "="
                + timeout.toMillis() + "; not guessing a starting offset, trying again until "
                + TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG + ". Check "
                + (asked != null ? asked : "the target cluster") + ", or raise "
                + TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG + " (" + e.getMessage() + ")";
    }

    private Map<String, ProgressRecord> readOnce(Map<String, TopicPartition> sources, Instant deadline) {
        TopicDescription topic = requireTopic(sources.values()).orElseThrow(() -> new org.apache.kafka.common.errors
                .TimeoutException("Could not describe the progress topic " + target.topic() + " in time"));
        requireCompacted(sources.values());
        Map<String, ProgressRecord> committed = records.read(sources.keySet(), topic.topicId(), sources.values(),
                deadline);
        Map<String, Uuid> sourceIds = sourceTopics.ids(SourceTopics.topicsOf(sources.values()));
        Map<String, ProgressRecord> progress = new HashMap<>();
        Map<String, List<String>> startingOver = new TreeMap<>();
        sources.forEach((key, source) -> {
            Optional<Uuid> sourceId = Optional.ofNullable(sourceIds.get(source.topic()));
            ProgressRecord last = committed.get(key);
            if (last != null && SourceIdentity.replaced(last.sourceTopicId(), sourceId)) {
                long start = sourceTopics.startOffset(source);
                if (!target.sourceTopicId(source).equals(sourceId)) { // not told already: this task started it over
                    startingOver.computeIfAbsent(source.topic(), t -> new ArrayList<>()).add(source + "@" + start
                            + " (not " + last.next() + ", progress of topic id " + last.sourceTopicId().orElseThrow()
                            + ")");
                }
                last = new ProgressRecord(start, last.topicId(), sourceId, last.targetPartitions());
            }
            if (last != null) {
                progress.put(key, last);
            }
            target.restore(source, sourceId, last == null ? Map.of() : last.targetPartitions(),
                    last == null ? Optional.empty() : last.redo());
        });
        startingOver.forEach((name, partitions) -> log.warn("Source topic {} (topic id {}) was deleted and created"
                + " again since its progress was written: starting over at {}", name, sourceIds.get(name),
                partitions));
        return progress;
    }

    /**
     * The partitions among {@code partitions} whose source topic has another id now than when they were opened: the
     * topic was deleted and created again while the worker's consumer kept its position (it need not rebalance), so
     * the records it delivers now are the new topic's, from that position on. Asked before writing, so nothing of a
     * new topic is committed under the old topic's progress. Each such partition starts over where
     * {@link SourceTopics#startOffset} says (returned), logged at WARN once per topic; its new id is registered.
     *
     * @throws org.apache.kafka.connect.errors.RetriableException when the source cluster did not answer in time
     */
    public Map<TopicPartition, Long> replacedSources(Collection<TopicPartition> partitions) {
        List<TopicPartition> known = partitions.stream().filter(p -> target.sourceTopicId(p).isPresent()).toList();
        if (known.isEmpty()) {
            return Map.of();
        }
        try {
            return replacedSourcesOf(known);
        } catch (RetriableException e) {
            throw new org.apache.kafka.connect.errors.RetriableException("Could not check whether the source topics"
                    + " of " + known + " were deleted and created again (" + e + ")", e);
        }
    }

    private Map<TopicPartition, Long> replacedSourcesOf(List<TopicPartition> known) {
        Map<String, Uuid> now = sourceTopics.ids(SourceTopics.topicsOf(known));
        Map<TopicPartition, Long> starts = new HashMap<>();
        Map<String, List<String>> startingOver = new TreeMap<>();
        for (TopicPartition partition : known) {
            Optional<Uuid> id = Optional.ofNullable(now.get(partition.topic()));
            Optional<Uuid> opened = target.sourceTopicId(partition);
            if (SourceIdentity.replaced(opened, id)) {
                long start = sourceTopics.startOffset(partition);
                starts.put(partition, start);
                target.restore(partition, id, target.mappedPartitions(partition), Optional.empty());
                startingOver.computeIfAbsent(partition.topic(), t -> new ArrayList<>()).add(partition + "@" + start
                        + " (its records since were the new topic's; topic id " + opened.orElseThrow() + " before)");
            }
        }
        startingOver.forEach((name, started) -> log.warn("Source topic {} (topic id {}) was deleted and created"
                + " again while this task ran: starting over at {}", name, now.get(name), started));
        return starts;
    }

    /**
     * Fails when the progress topic does not exist (deleted, and with it the progress), or exists with another id
     * than when the task started (deleted and created again); answers its description, or empty when it cannot be
     * described just now (the caller's own error then stands).
     */
    public Optional<TopicDescription> requireTopic(Iterable<TopicPartition> partitions) {
        try {
            TopicDescription topic = admin.describeTopics(List.of(target.topic())).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(target.topic());
            target.learn(topic.topicId(), partitions);
            return Optional.of(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw missingTopic(partitions);
            }
            return Optional.empty();
        } catch (java.util.concurrent.TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while checking the progress topic", e);
        }
    }

    private void requireCompacted(Iterable<TopicPartition> partitions) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, target.topic());
        Config config;
        try {
            config = admin.describeConfigs(List.of(resource)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(resource);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KafkaException cause) {
                throw cause;
            }
            throw new ConnectException("Could not describe the configs of the progress topic " + target.topic(), e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("Could not describe the configs of the"
                    + " progress topic " + target.topic() + " in time", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while checking the progress topic", e);
        }
        ConfigEntry policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (policy == null || !TopicConfig.CLEANUP_POLICY_COMPACT.equals(policy.value())) {
            throw new ConnectException("The progress topic " + target.topic() + " has "
                    + TopicConfig.CLEANUP_POLICY_CONFIG + "=" + (policy == null ? null : policy.value())
                    + ", not compact: retention would delete the progress of " + partitions + ", and a topic the"
                    + " broker created at a send after it was deleted looks like this. The task stops rather than"
                    + " guess where to resume. If it was created again, delete it and restart the connector (it"
                    + " creates it compacted); otherwise set " + TopicConfig.CLEANUP_POLICY_CONFIG + "=compact on it");
        }
    }

    private ConnectException missingTopic(Iterable<TopicPartition> partitions) {
        return ProgressTopic.missing(target.topic(), String.valueOf(partitions));
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
        watcher.shutdownNow();
        records.close();
        admin.close(Duration.ofSeconds(5));
    }
}
