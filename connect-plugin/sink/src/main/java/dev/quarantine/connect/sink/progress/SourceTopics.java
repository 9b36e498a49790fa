package dev.quarantine.connect.sink.progress;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;

/**
 * The source topics as the source cluster shows them (the cluster named by consumer.override.bootstrap.servers, else
 * the target cluster while it holds the connector's consumer group, see {@link #isSourceCluster()} and
 * {@link TransactionalSinkConfig#sourceAdminConfigs()}): their ids, and where a partition
 * starts over when its topic was deleted and created again (as the worker's consumer.override.auto.offset.reset
 * says: the earliest offset unless it says latest; none fails). A topic the source cluster does not show (or may not
 * be described by the admin's principal) has no id: its re-creation cannot be noticed.
 */
public final class SourceTopics {

    private static final Logger log = LoggerFactory.getLogger(SourceTopics.class);
    public static final String RESET_OVERRIDE = ConfigRules.CONSUMER_OVERRIDE_PREFIX + "auto.offset.reset";

    private final Supplier<Admin> admin;
    private final String reset;
    private final Duration timeout;
    private final Optional<String> unnamedSourceGroup;
    private final Set<String> deniedLogged = ConcurrentHashMap.newKeySet();
    /** Whether the admin's cluster is the one the worker's consumer reads; unknown until first asked. */
    private volatile Boolean isSource;

    /**
     * @param reset              the connector's consumer.override.auto.offset.reset, or Connect's default for sinks,
     *                           earliest
     * @param unnamedSourceGroup the connector's consumer group when the source cluster is not named
     *                           (consumer.override.bootstrap.servers) and {@code admin} reaches the target cluster
     *                           instead: the target is taken for the source cluster only while it holds that group
     */
    public SourceTopics(Supplier<Admin> admin, String reset, Duration timeout, Optional<String> unnamedSourceGroup) {
        this.admin = admin;
        this.reset = reset.trim().toLowerCase(Locale.ROOT);
        this.timeout = timeout;
        this.unnamedSourceGroup = unnamedSourceGroup;
    }

    /** For tests: {@code admin} reaches the source cluster. */
    public SourceTopics(Supplier<Admin> admin, String reset, Duration timeout) {
        this(admin, reset, timeout, Optional.empty());
    }

    /**
     * The ids of those of {@code topics} the source cluster shows; none when the source cluster is not known (see
     * {@link #isSourceCluster()}).
     *
     * @throws RetriableException when the source cluster did not answer in time
     */
    public Map<String, Uuid> ids(Collection<String> topics) {
        if (!isSourceCluster()) {
            return Map.of();
        }
        Map<String, KafkaFuture<TopicDescription>> described = admin.get().describeTopics(Set.copyOf(topics))
                .topicNameValues();
        Map<String, Uuid> ids = new HashMap<>();
        described.forEach((topic, future) -> {
            String asked = "describing source topic " + topic;
            try {
                ids.put(topic, await(future, asked).topicId());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TopicAuthorizationException) {
                    if (deniedLogged.add(topic)) {
                        log.warn("May not describe source topic {} on the source cluster: a re-creation of it (deleted"
                                + " and created again with the same name) cannot be noticed. Allow Describe on it for"
                                + " the source admin's principal ({}* settings, else {}*)", topic,
                                ConfigRules.CONSUMER_OVERRIDE_PREFIX, TransactionalSinkConfig.TARGET_ADMIN_PREFIX);
                    }
                } else if (e.getCause() instanceof RetriableException retriable
                        && !(retriable instanceof UnknownTopicOrPartitionException)) {
                    throw unanswered(asked, retriable);
                } else if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new ConnectException("Could not describe source topic " + topic, e.getCause());
                }
            }
        });
        return ids;
    }

    /**
     * The partition count of {@code topic} on the cluster this admin asks: the source cluster, else the target cluster,
     * which the source then is assumed to be (a target topic created for {@code topic} gets as many); empty when that
     * cluster does not show it.
     *
     * @throws Unanswered      when it did not answer in time
     * @throws ConnectException when it refused (naming the ACL to grant and the setting that avoids the call)
     */
    public Optional<Integer> partitionCount(String topic) {
        String asked = "describing source topic " + topic;
        try {
            return Optional.of(await(admin.get().describeTopics(List.of(topic)).topicNameValues().get(topic), asked)
                    .partitions().size());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            if (e.getCause() instanceof RetriableException retriable) {
                throw unanswered(asked, retriable);
            }
            throw new ConnectException("Could not describe source topic " + topic + " on " + cluster() + ": "
                    + e.getCause() + "; allow Describe on it for the source admin's principal ("
                    + ConfigRules.CONSUMER_OVERRIDE_PREFIX + "* settings, else "
                    + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "*), or set "
                    + TransactionalSinkConfig.TARGET_TOPIC_CREATION_PREFIX + "partitions", e.getCause());
        }
    }

    /**
     * Whether the admin's cluster is the one the worker's consumer reads: a cluster named by
     * consumer.override.bootstrap.servers is; the target cluster, asked in its place, only when it holds the
     * connector's consumer group with members (the group lives on the cluster the consumer reads, and a task is asked
     * first when its partitions are opened, its consumer a member then). A stopped connector's group has no members:
     * Connect's offsets API, called only then, records no id. Otherwise the topic ids it shows are another cluster's topics' (a topic of the same
     * name, created again there, would be taken for the source topic created again and started over), so none are
     * used: a source topic created again is then not noticed, which a WARN says once. Asked once per task.
     */
    private boolean isSourceCluster() {
        Boolean known = isSource;
        if (known == null) {
            known = unnamedSourceGroup.map(this::holdsGroup).orElse(true);
            isSource = known;
        }
        return known;
    }

    private boolean holdsGroup(String group) {
        ConsumerGroupDescription description;
        String asked = "describing consumer group " + group;
        try {
            description = await(admin.get().describeConsumerGroups(List.of(group)).describedGroups().get(group),
                    asked);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw unanswered(asked, retriable);
            }
            description = null; // not found (GroupIdNotFoundException), or denied: not known as the source cluster
        }
        // members, not the group's state: GroupState is Kafka 4.0's, and the 3.9 client's state enum is deprecated
        boolean holds = description != null && !description.members().isEmpty();
        if (!holds) {
            log.warn("The source cluster is not named ({} is not set) and the target cluster does not hold (or may not"
                    + " describe) the connector's consumer group {}: the worker's consumer reads another cluster, whose"
                    + " topic ids this task cannot look up. A source topic deleted and created again with the same"
                    + " name is not noticed; set {} (and the consumer.override.* client settings it needs) for it to"
                    + " be", ConfigRules.SOURCE_BOOTSTRAP_OVERRIDE, group, ConfigRules.SOURCE_BOOTSTRAP_OVERRIDE);
        }
        return holds;
    }

    /**
     * The partitions {@code group} has committed offsets for on the source cluster (Connect's consumer group of the
     * connector's tasks): those Connect's {@code DELETE /connectors/{name}/offsets} passes to the connector.
     *
     * @throws RetriableException when the source cluster did not answer in time
     */
    public Set<TopicPartition> committedBy(String group) {
        String asked = "listing the offsets of consumer group " + group;
        try {
            return Set.copyOf(await(admin.get().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                    asked).keySet());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw unanswered(asked, retriable);
            }
            throw new ConnectException("Could not list the offsets of consumer group " + group + " on the source"
                    + " cluster", e.getCause());
        }
    }

    /** Where {@code partition} of a topic created again starts: its earliest offset, or its latest with latest. */
    long startOffset(TopicPartition partition) {
        if ("none".equals(reset)) {
            throw new ConnectException("Source topic " + partition.topic() + " was deleted and created again, and "
                    + RESET_OVERRIDE + "=none: not choosing where " + partition + " starts. Set " + RESET_OVERRIDE
                    + " to earliest or latest, or reset the connector's offsets");
        }
        OffsetSpec spec = "latest".equals(reset) ? OffsetSpec.latest() : OffsetSpec.earliest();
        String asked = "listing the " + spec + " offset of " + partition;
        try {
            return await(admin.get().listOffsets(Map.of(partition, spec)).partitionResult(partition), asked)
                    .offset();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw unanswered(asked, retriable);
            }
            throw new ConnectException("Could not find the " + spec + " offset of " + partition, e.getCause());
        }
    }

    private <T> T await(KafkaFuture<T> future, String asked) throws ExecutionException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw unanswered(asked + " within " + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while " + asked, e);
        }
    }

    /** {@code asked} not answered for now by the cluster this admin asks, naming it. */
    private Unanswered unanswered(String asked, Exception cause) {
        return new Unanswered(cluster(), asked, cause);
    }

    /**
     * The cluster this admin asks, for messages: the source cluster named by consumer.override.bootstrap.servers, or
     * the target cluster, asked in its place while it holds the connector's consumer group.
     */
    private String cluster() {
        return unnamedSourceGroup.isPresent() ? "the target cluster (asked for the source topics, as "
                + ConfigRules.SOURCE_BOOTSTRAP_OVERRIDE + " is not set)" : "the source cluster ("
                + ConfigRules.SOURCE_BOOTSTRAP_OVERRIDE + ")";
    }

    /**
     * The cluster asked for the source topics did not answer for now (a timeout, a connection lost, a leader moving):
     * retried, and named apart from the progress reads and writes on the target cluster, whose settings and checks
     * are others.
     */
    public static final class Unanswered extends RetriableException {

        private static final long serialVersionUID = 1L;

        private final String cluster;

        /** @param cluster the cluster asked, with the setting that names it, e.g. "the source cluster (...)" */
        public Unanswered(String cluster, String asked, Exception cause) {
            super(Character.toUpperCase(cluster.charAt(0)) + cluster.substring(1) + " did not answer " + asked
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause);
            this.cluster = cluster;
        }

        /** The cluster that did not answer, with the setting that names it: what to check. */
        public String cluster() {
            return cluster;
        }
    }

    /** For messages: the topics of {@code partitions}. */
    public static List<String> topicsOf(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::topic).distinct().sorted().toList();
    }
}
