package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;
import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.PartitionMapping;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.ProgressTopic;

/**
 * Checks that need the clusters, for {@link TransactionalKafkaSinkConnector#validate}: the target cluster answers,
 * the dead-letter topic exists on it and takes dead letters of dlq.payload.max.bytes, no topic is copied onto
 * itself, and target.partition.mapping=keep does not meet a target topic with fewer partitions than its source.
 * An existing progress topic has both its partitions ({@link ProgressTopic#partitionProblem}; a missing one is
 * created by the connector.)
 */
public final class TargetClusterChecks {

    private final Duration timeout;

    public TargetClusterChecks(Duration timeout) {
        this.timeout = timeout;
    }

    public Map<String, List<String>> problems(TransactionalSinkConfig config, Map<String, String> props) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        Optional<String> targetClusterId = Optional.empty();
        try (Admin admin = Admin.create(withTimeouts(config.adminConfigs()))) {
            targetClusterId = Optional.of(admin.describeCluster().clusterId().get(timeout.toMillis(),
                    TimeUnit.MILLISECONDS));
            requireTopics(admin, config, problems);
            ProgressTopic.partitionProblem(admin, config, timeout).ifPresent(problem ->
                    ConfigRules.add(problems, TransactionalSinkConfig.PROGRESS_TOPIC_NAME_CONFIG, problem));
            partitionProblems(config, props, problems);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            ConfigRules.add(problems, TransactionalSinkConfig.TARGET_BOOTSTRAP_SERVERS_CONFIG, "could not reach the"
                    + " target cluster at " + config.targetBootstrapServers() + " within " + timeout.toSeconds()
                    + " s: " + describe(e) + " (connection and security settings go in "
                    + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "*)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ConfigRules.add(problems, TransactionalSinkConfig.TARGET_BOOTSTRAP_SERVERS_CONFIG, "interrupted while"
                    + " reaching the target cluster");
        }
        if (!sourceIsAnotherCluster(config, props, targetClusterId)) {
            ConfigRules.selfCopyProblems(config, props).forEach((key, messages) ->
                    messages.forEach(m -> ConfigRules.add(problems, key, m)));
        }
        return problems;
    }

    private void requireTopics(Admin admin, TransactionalSinkConfig config, Map<String, List<String>> problems)
            throws InterruptedException, java.util.concurrent.TimeoutException, ExecutionException {
        if (config.dlqTopic().isEmpty()) {
            return;
        }
        String dlq = config.dlqTopic().get();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, dlq);
        try {
            admin.describeTopics(List.of(dlq)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Config topicConfig = admin.describeConfigs(List.of(resource)).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(resource);
            ConfigEntry maxMessageBytes = topicConfig.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            OptionalInt limit = maxMessageBytes == null || maxMessageBytes.value() == null ? OptionalInt.empty()
                    : OptionalInt.of(Integer.parseInt(maxMessageBytes.value()));
            ConfigRules.deadLetterTopicLimitProblems(config, dlq, limit)
                    .forEach((key, messages) -> messages.forEach(m -> ConfigRules.add(problems, key, m)));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                ConfigRules.add(problems, TransactionalSinkConfig.DLQ_TOPIC_NAME_CONFIG, "topic " + dlq + " does not"
                        + " exist on the target cluster: create it first");
            } else {
                throw e;
            }
        }
    }

    /**
     * With target.partition.mapping=keep, a listed source topic whose target topic exists with fewer partitions:
     * the records of the partitions it lacks would all be dead-lettered.
     */
    private void partitionProblems(TransactionalSinkConfig config, Map<String, String> props,
                                   Map<String, List<String>> problems) {
        if (config.targetTopicSettings().mapping() != PartitionMapping.KEEP) {
            return;
        }
        try (Admin target = Admin.create(withTimeouts(config.adminConfigs()));
             Admin source = Admin.create(withTimeouts(config.sourceAdminConfigs()))) {
            for (String topic : ConfigRules.sourceTopics(props)) {
                String targetTopic = config.topicFormat().targetTopic(topic);
                OptionalInt have = partitions(target, targetTopic);
                OptionalInt need = partitions(source, topic);
                if (have.isPresent() && need.isPresent() && have.getAsInt() < need.getAsInt()) {
                    ConfigRules.add(problems, TransactionalSinkConfig.TARGET_PARTITION_MAPPING_CONFIG, "is keep, but"
                            + " target topic " + targetTopic + " has " + have.getAsInt() + " partitions and source"
                            + " topic " + topic + " has " + need.getAsInt() + ": every record of partitions "
                            + have.getAsInt() + " to " + (need.getAsInt() - 1) + " would be dead-lettered. Use hash"
                            + " (Kafka's partitioner on the key), or add partitions to " + targetTopic);
                }
            }
        }
    }

    /** The topic's partition count, or empty when it does not exist or cannot be described in time. */
    private OptionalInt partitions(Admin admin, String topic) {
        try {
            return OptionalInt.of(admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic).partitions().size());
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalInt.empty();
        }
    }

    /**
     * Whether the source cluster is known to differ from the target: only when the connector names it with
     * consumer.override.bootstrap.servers and its cluster id differs. Otherwise the clusters may be the same.
     */
    private boolean sourceIsAnotherCluster(TransactionalSinkConfig config, Map<String, String> props,
                                           Optional<String> targetClusterId) {
        String source = props.get(ConfigRules.SOURCE_BOOTSTRAP_OVERRIDE);
        if (source == null || source.isBlank() || targetClusterId.isEmpty()) {
            return false;
        }
        try (Admin admin = Admin.create(withTimeouts(config.sourceAdminConfigs()))) {
            String sourceId = admin.describeCluster().clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return !sourceId.equals(targetClusterId.get());
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Map<String, Object> withTimeouts(Map<String, Object> configs) {
        Map<String, Object> withTimeouts = new HashMap<>(configs);
        int millis = (int) timeout.toMillis();
        withTimeouts.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        withTimeouts.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        withTimeouts.put(AdminClientConfig.CLIENT_ID_CONFIG, "quarantine-sink-validate");
        return withTimeouts;
    }

    private static String describe(Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
