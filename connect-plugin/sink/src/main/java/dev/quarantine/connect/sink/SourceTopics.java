package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source topics as the source cluster shows them (the cluster named by consumer.override.bootstrap.servers, else
 * the target cluster, see {@link TransactionalSinkConfig#sourceAdminConfigs()}): their ids, and where a partition
 * starts over when its topic was deleted and created again (as the worker's consumer.override.auto.offset.reset
 * says: the earliest offset unless it says latest; none fails). A topic the source cluster does not show (or may not
 * be described by the admin's principal) has no id: its re-creation cannot be noticed.
 */
final class SourceTopics {

    private static final Logger log = LoggerFactory.getLogger(SourceTopics.class);
    static final String RESET_OVERRIDE = ConfigRules.CONSUMER_OVERRIDE_PREFIX + "auto.offset.reset";

    private final Supplier<Admin> admin;
    private final String reset;
    private final Duration timeout;
    private final Set<String> deniedLogged = ConcurrentHashMap.newKeySet();

    /** @param reset the connector's consumer.override.auto.offset.reset, or Connect's default for sinks, earliest */
    SourceTopics(Supplier<Admin> admin, String reset, Duration timeout) {
        this.admin = admin;
        this.reset = reset.trim().toLowerCase(Locale.ROOT);
        this.timeout = timeout;
    }

    /**
     * The ids of those of {@code topics} the source cluster shows.
     *
     * @throws RetriableException when the source cluster did not answer in time
     */
    Map<String, Uuid> ids(Collection<String> topics) {
        Map<String, KafkaFuture<TopicDescription>> described = admin.get().describeTopics(Set.copyOf(topics))
                .topicNameValues();
        Map<String, Uuid> ids = new HashMap<>();
        described.forEach((topic, future) -> {
            try {
                ids.put(topic, await(future).topicId());
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
                    throw retriable;
                } else if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new ConnectException("Could not describe source topic " + topic, e.getCause());
                }
            }
        });
        return ids;
    }

    /**
     * The partitions {@code group} has committed offsets for on the source cluster (Connect's consumer group of the
     * connector's tasks): those Connect's {@code DELETE /connectors/{name}/offsets} passes to the connector.
     *
     * @throws RetriableException when the source cluster did not answer in time
     */
    Set<TopicPartition> committedBy(String group) {
        try {
            return Set.copyOf(await(admin.get().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata())
                    .keySet());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw retriable;
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
        try {
            return await(admin.get().listOffsets(Map.of(partition, spec)).partitionResult(partition)).offset();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw retriable;
            }
            throw new ConnectException("Could not find the " + spec + " offset of " + partition, e.getCause());
        }
    }

    private <T> T await(KafkaFuture<T> future) throws ExecutionException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("The source cluster did not answer within " + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while describing source topics", e);
        }
    }

    /** For messages: the topics of {@code partitions}. */
    static List<String> topicsOf(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::topic).distinct().sorted().toList();
    }
}
