package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Checks that need the clusters, for {@link TransactionalKafkaSinkConnector#validate}: the target cluster answers,
 * the dead-letter and progress topics exist on it, and no topic is copied onto itself.
 */
final class TargetClusterChecks {

    private final Duration timeout;

    TargetClusterChecks(Duration timeout) {
        this.timeout = timeout;
    }

    Map<String, List<String>> problems(TransactionalSinkConfig config, Map<String, String> props) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        Optional<String> targetClusterId = Optional.empty();
        try (Admin admin = Admin.create(withTimeouts(config.adminConfigs()))) {
            targetClusterId = Optional.of(admin.describeCluster().clusterId().get(timeout.toMillis(),
                    TimeUnit.MILLISECONDS));
            requireTopics(admin, config, problems);
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
        if (!sourceIsAnotherCluster(props, targetClusterId)) {
            ConfigRules.selfCopyProblems(config, props).forEach((key, messages) ->
                    messages.forEach(m -> ConfigRules.add(problems, key, m)));
        }
        return problems;
    }

    private void requireTopics(Admin admin, TransactionalSinkConfig config, Map<String, List<String>> problems)
            throws InterruptedException, java.util.concurrent.TimeoutException, ExecutionException {
        Map<String, String> topics = new LinkedHashMap<>();
        config.dlqTopic().ifPresent(t -> topics.put(t, TransactionalSinkConfig.DLQ_TOPIC_NAME_CONFIG));
        config.progressTopic().ifPresent(t -> topics.putIfAbsent(t, TransactionalSinkConfig.PROGRESS_TOPIC_NAME_CONFIG));
        Set<String> names = new LinkedHashSet<>(topics.keySet());
        if (names.isEmpty()) {
            return;
        }
        var described = admin.describeTopics(names).topicNameValues();
        for (Map.Entry<String, String> topic : topics.entrySet()) {
            try {
                described.get(topic.getKey()).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    ConfigRules.add(problems, topic.getValue(), "topic " + topic.getKey() + " does not exist on the"
                            + " target cluster: create it first");
                } else {
                    throw e;
                }
            }
        }
    }

    /**
     * Whether the source cluster is known to differ from the target: only when the connector names it with
     * consumer.override.bootstrap.servers and its cluster id differs. Otherwise the clusters may be the same.
     */
    private boolean sourceIsAnotherCluster(Map<String, String> props, Optional<String> targetClusterId) {
        String source = props.get(ConfigRules.SOURCE_BOOTSTRAP_OVERRIDE);
        if (source == null || source.isBlank() || targetClusterId.isEmpty()) {
            return false;
        }
        Map<String, Object> configs = new HashMap<>();
        props.forEach((key, value) -> {
            String name = key.startsWith("consumer.override.") ? key.substring("consumer.override.".length()) : null;
            if (name != null && AdminClientConfig.configNames().contains(name)) {
                configs.put(name, value);
            }
        });
        try (Admin admin = Admin.create(withTimeouts(configs))) {
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
