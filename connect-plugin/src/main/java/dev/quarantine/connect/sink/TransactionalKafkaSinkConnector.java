package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * An exactly-once Kafka-to-Kafka sink: each batch of a source partition is written to the target cluster in one
 * transaction, together with the dead letters of records the target would reject and the partition's progress.
 * Settings: {@link TransactionalSinkConfig}.
 */
public class TransactionalKafkaSinkConnector extends SinkConnector {

    private static final Duration VALIDATE_TIMEOUT = Duration.ofSeconds(15);

    private Map<String, String> props;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        TransactionalSinkConfig.parse(props);
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
        Map<String, List<String>> problems = new HashMap<>(ConfigRules.problems(parsed));
        if (problems.isEmpty()) {
            new TargetClusterChecks(VALIDATE_TIMEOUT).problems(parsed, connectorConfigs)
                    .forEach((key, messages) -> problems.computeIfAbsent(key, k -> new ArrayList<>()).addAll(messages));
        }
        for (ConfigValue value : config.configValues()) {
            problems.getOrDefault(value.name(), List.of()).forEach(value::addErrorMessage);
        }
        return config;
    }
}
