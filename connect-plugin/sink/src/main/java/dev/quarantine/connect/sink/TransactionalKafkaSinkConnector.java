package dev.quarantine.connect.sink;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.TargetClusterChecks;
import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.OffsetsChange;
import dev.quarantine.connect.sink.progress.ProgressReset;
import dev.quarantine.connect.sink.progress.ProgressTopic;
import dev.quarantine.connect.sink.progress.SourceTopics;
import dev.quarantine.txn.PluginVersion;

/**
 * An exactly-once Kafka-to-Kafka sink: each batch of a source partition is written to the target cluster in one
 * transaction, together with the dead letters of records the target would reject and the partition's progress.
 * Settings: {@link TransactionalSinkConfig}.
 */
public class TransactionalKafkaSinkConnector extends SinkConnector {

    private static final Duration VALIDATE_TIMEOUT = Duration.ofSeconds(15);
    /** For the offsets API's look-ups on the source cluster: well within Connect's 90 s for the whole request. */
    private static final Duration OFFSETS_TIMEOUT = Duration.ofSeconds(15);

    private final Consumer<TransactionalSinkConfig> progressTopic;
    private Map<String, String> props;

    public TransactionalKafkaSinkConnector() {
        this(ProgressTopic::createIfMissing);
    }

    /** For tests: {@code progressTopic} stands in for creating the progress topic on the target cluster. */
    TransactionalKafkaSinkConnector(Consumer<TransactionalSinkConfig> progressTopic) {
        this.progressTopic = progressTopic;
    }

    @Override
    public String version() {
        return PluginVersion.of(TransactionalKafkaSinkConnector.class);
    }

    /**
     * Checks the settings (and that the worker's consumer reads committed source records only) and creates the
     * progress topic on the target cluster if it is missing.
     */
    @Override
    public void start(Map<String, String> props) {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props);
        ConfigRules.sourceIsolationProblem(props).ifPresent(problem -> {
            throw new ConfigException("Invalid value for " + ConfigRules.SOURCE_ISOLATION_OVERRIDE + ": " + problem);
        });
        progressTopic.accept(config);
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return TransactionalKafkaSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int task = 0; task < maxTasks; task++) {
            Map<String, String> config = new HashMap<>(props);
            config.put(TransactionalSinkConfig.TASK_ID_CONFIG, String.valueOf(task));
            configs.add(config);
        }
        return configs;
    }

    @Override
    public void stop() {
        props = null;
    }

    /**
     * Connect's offsets API (KIP-875, {@code PATCH} and {@code DELETE /connectors/{name}/offsets}, only while the
     * connector is STOPPED): the tasks resume from the progress records, not from Connect's consumer group, so the
     * change is written there (see {@link ProgressReset}), by the offsets API's own id {@code <prefix>:offsets#0}
     * ({@link OffsetsSlot}), before Connect changes its group. The source topics' ids and the group's partitions
     * (which tell a DELETE, see {@link OffsetsChange}) are read on the source cluster.
     */
    @Override
    public boolean alterOffsets(Map<String, String> connectorConfig, Map<TopicPartition, Long> offsets) {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(connectorConfig);
        try (ClusterAdmins admins = new ClusterAdmins(config.adminConfigs(), config.sourceAdminConfigs());
             OffsetsSlot slot = new OffsetsSlot(config, admins, Clock.systemUTC())) {
            SourceTopics topics = new SourceTopics(admins::source, config.sourceOffsetReset(), OFFSETS_TIMEOUT,
                    config.unnamedSourceGroup());
            OffsetsChange change = OffsetsChange.of(offsets, topics.committedBy(config.sourceGroupId()));
            // what a task's id left open on the progress partition would hold back every read of the change
            slot.completeLeftOpen(config.progressReadTimeout());
            new ProgressReset(config, admins, slot.ownership(), slot.producer()).apply(offsets,
                    topics.ids(SourceTopics.topicsOf(offsets.keySet())), change);
        }
        return true;
    }

    @Override
    public ConfigDef config() {
        return TransactionalSinkConfig.configDef();
    }

    /** Each setting's own validator, then the rules between settings and against the clusters, on their keys. */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config config = super.validate(connectorConfigs);
        boolean singleSettingsValid = config.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
        if (!singleSettingsValid) {
            return config;
        }
        TransactionalSinkConfig parsed = new TransactionalSinkConfig(connectorConfigs);
        Map<String, List<String>> problems = new HashMap<>(ConfigRules.problemsOfANewConfig(parsed));
        if (problems.isEmpty()) {
            new TargetClusterChecks(VALIDATE_TIMEOUT).problems(parsed, connectorConfigs)
                    .forEach((key, messages) -> problems.computeIfAbsent(key, k -> new ArrayList<>()).addAll(messages));
        }
        ConfigRules.sourceIsolationProblem(connectorConfigs)
                .ifPresent(m -> ConfigRules.add(problems, ConfigRules.SOURCE_ISOLATION_OVERRIDE, m));
        List<ConfigValue> values = new ArrayList<>(config.configValues());
        for (ConfigValue value : values) {
            List<String> messages = problems.remove(value.name());
            if (messages != null) {
                messages.forEach(value::addErrorMessage);
            }
        }
        // problems of settings outside the ConfigDef (target.producer.*, consumer.override.*) on their own keys
        problems.forEach((key, messages) -> {
            ConfigValue value = new ConfigValue(key, connectorConfigs.get(key), List.of(), new ArrayList<>());
            messages.forEach(value::addErrorMessage);
            values.add(value);
        });
        return new Config(values);
    }
}
