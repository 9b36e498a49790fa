package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.config.PartitionMapping;
import dev.quarantine.connect.sink.config.TargetTopicSettings;
import dev.quarantine.connect.sink.config.TopicFormat;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.SourceTopics;

/**
 * The target topics of a task, as MirrorMaker 2 keeps them: a missing target topic is created, with as many
 * partitions as its source topic, before anything is sent to it, never left to a broker's first-use creation (which
 * would give it {@code num.partitions}); and a record whose partition the target topic does not have is mapped by
 * {@code target.partition.mapping}.
 *
 * <p>Each target topic is described once, on its first record; its partition count is then kept (partitions added
 * later are used by the producer's own checks, never needed here). A missing topic that is not to be created is
 * looked up again after {@link #MISSING_RECHECK}. {@link #ensure} runs on the task's thread, {@link #partition} on
 * the writers' threads.
 */
public final class TargetTopics implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TargetTopics.class);
    static final Duration MISSING_RECHECK = Duration.ofSeconds(10);
    /** How long a describe or create call may take before the batch is handed back to the worker. */
    public static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(60);

    private final TopicFormat format;
    private final TargetTopicSettings settings;
    private final ClusterAdmins admins;
    private final Duration timeout;
    private final Map<String, Integer> partitions = new ConcurrentHashMap<>();
    private final Map<String, Instant> missingSince = new ConcurrentHashMap<>();
    private final TopicIds ids;
    private final SourceTopics sources;

    /**
     * For tests: target topics whose ids are not kept ({@link TopicIds#NONE}), the source topics' partition counts
     * asked of the cluster {@code admins} names the source (taken for one named by consumer.override.bootstrap.servers
     * in messages; a task passes its {@link SourceTopics}, which knows).
     */
    public TargetTopics(TopicFormat format, TargetTopicSettings settings, ClusterAdmins admins, Duration timeout) {
        this(format, settings, admins, timeout, TopicIds.NONE, new SourceTopics(admins::source, "earliest", timeout));
    }

    /**
     * @param ids     kept with each target topic's describe here, and described again as {@link TopicIds} says
     * @param sources where a target topic created with as many partitions as its source topic learns that count
     */
    public TargetTopics(TopicFormat format, TargetTopicSettings settings, ClusterAdmins admins, Duration timeout,
                        TopicIds ids, SourceTopics sources) {
        this.format = format;
        this.settings = settings;
        this.admins = admins;
        this.timeout = timeout;
        this.ids = ids;
        this.sources = sources;
    }

    /**
     * Makes sure the target topic of every record exists (creating it when target.topic.creation.enable), and knows
     * its partition count.
     *
     * @throws org.apache.kafka.connect.errors.RetriableException when the target cluster did not answer in time, or
     *                                                            the source cluster, asked for a partition count
     *                                                            ({@link SourceTopics.Unanswered} its cause)
     * @throws ConnectException when a topic could not be created (naming it and the settings to check)
     */
    public void ensure(Collection<SinkRecord> records) {
        Map<String, String> unknown = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        Set<String> targets = new HashSet<>();
        for (SinkRecord record : records) {
            if (record.topic() == null || !seen.add(record.topic())) {
                continue; // a record an SMT left without a topic fails the task in its writer, naming the record
            }
            String target = format.targetTopic(record.topic());
            targets.add(target);
            if (!partitions.containsKey(target) && !unknown.containsKey(target) && !recentlyMissing(target)) {
                unknown.put(target, record.originalTopic());
            }
        }
        if (!unknown.isEmpty()) {
            Map<String, Optional<TopicDescription>> described = describe(admins.target(), unknown.keySet());
            unknown.forEach((target, source) -> resolve(target, source, described.get(target)));
        }
        ids.refresh(targets);
    }

    /**
     * The target partition of a record: its own, or, where the target topic does not have it, the mapping's, by the
     * partition count in {@code mapped} (the record's source partition's, from its progress): a target topic that
     * gained partitions since keeps mapping the partition's keys where they went. A topic not in {@code mapped} adds
     * its count as described now; one that now has fewer partitions than kept (deleted and created smaller) takes the
     * new count, as its keys cannot stay.
     */
    public Integer partition(String targetTopic, Integer partition, byte[] key, Map<String, Integer> mapped) {
        Integer count = partitions.get(targetTopic);
        if (settings.mapping() == PartitionMapping.KEEP || count == null) {
            return settings.mapping().choose(partition, key, count == null ? Integer.MAX_VALUE : count);
        }
        int used = mapped.merge(targetTopic, count, (kept, now) -> kept <= now ? kept : now);
        return settings.mapping().choose(partition, key, used);
    }

    /** Keeps the partition count of {@code target}, {@code described} (created first when missing and to be). */
    private void resolve(String target, String source, Optional<TopicDescription> described) {
        if (described.isEmpty() && settings.create()) {
            create(target, source);
            described = describe(admins.target(), List.of(target)).get(target);
        }
        if (described.isPresent()) {
            partitions.put(target, described.get().partitions().size());
            ids.described(target, described.get().topicId());
            missingSince.remove(target);
        } else {
            missingSince.put(target, Instant.now());
        }
    }

    private void create(String target, String source) {
        Optional<Integer> count = settings.partitions().or(() -> sourcePartitions(source, target));
        NewTopic topic = new NewTopic(target, count, settings.replicationFactor()).configs(settings.topicConfigs());
        try {
            AdminWait.await(admins.target().createTopics(List.of(topic)).all(), timeout, "create the target topic "
                    + target);
            log.info("Created target topic {} with {} partitions (source topic {}), replication factor {}, configs {}",
                    target, count.map(String::valueOf).orElse("the cluster's default number of"), source,
                    settings.replicationFactor().map(String::valueOf).orElse("default"), settings.topicConfigs());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return; // another task (or anyone) created it meanwhile
            }
            if (e.getCause() instanceof RetriableException) {
                throw transientFailure("create the target topic " + target, e.getCause());
            }
            throw new ConnectException("Could not create the target topic " + target + " (" + topic + "): "
                    + e.getCause() + ". Check the " + TransactionalSinkConfig.TARGET_TOPIC_CREATION_PREFIX
                    + "* settings and the ACLs of " + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "* (Create on the"
                    + " topic), or create the topic yourself", e.getCause());
        }
    }

    /** The partition count of {@code source}, for {@code target} created with as many; a failure names the cluster. */
    private Optional<Integer> sourcePartitions(String source, String target) {
        try {
            return sources.partitionCount(source);
        } catch (SourceTopics.Unanswered e) {
            throw new org.apache.kafka.connect.errors.RetriableException("Could not learn the partition count of"
                    + " source topic " + source + " on time, to create target topic " + target + " with as many;"
                    + " the batch is delivered again", e);
        }
    }

    /**
     * Each topic's description, or empty when it does not exist: one describe call for them all (a task starting on
     * hundreds of target topics waits for one round trip, not one per topic).
     */
    private Map<String, Optional<TopicDescription>> describe(Admin admin, Collection<String> topics) {
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(topics).topicNameValues();
        Map<String, Optional<TopicDescription>> described = new HashMap<>();
        for (String topic : topics) {
            described.put(topic, described(topic, futures.get(topic)));
        }
        return described;
    }

    private Optional<TopicDescription> described(String topic, KafkaFuture<TopicDescription> future) {
        try {
            return Optional.of(AdminWait.await(future, timeout, "describe topic " + topic));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            if (e.getCause() instanceof RetriableException) {
                throw transientFailure("describe topic " + topic, e.getCause());
            }
            throw new ConnectException("Could not describe topic " + topic + ": " + e.getCause() + "; check the"
                    + " ACLs of " + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "* (Describe on the topic)",
                    e.getCause());
        }
    }

    /** Connect's RetriableException (Kafka's, imported, is what the admin client fails with). */
    private static org.apache.kafka.connect.errors.RetriableException transientFailure(String what, Throwable cause) {
        return new org.apache.kafka.connect.errors.RetriableException("Could not " + what + " on time; the batch is"
                + " delivered again", cause);
    }

    private boolean recentlyMissing(String target) {
        Instant since = missingSince.get(target);
        return since != null && since.plus(MISSING_RECHECK).isAfter(Instant.now());
    }

    @Override
    public void close() {
        admins.close();
    }
}
