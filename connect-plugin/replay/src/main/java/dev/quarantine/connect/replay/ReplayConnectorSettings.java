package dev.quarantine.connect.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

import dev.quarantine.replay.ReplayConfig;

/** How a connector config becomes a {@link ReplayConfig}: the connector's name is the default replay id. */
final class ReplayConnectorSettings {

    /** Connect's own setting that names every connector. */
    static final String NAME_CONFIG = "name";

    private ReplayConnectorSettings() {
    }

    /** {@code props} with {@code replay.id} set to the connector's name when it is not set. */
    static Map<String, String> withReplayId(Map<String, String> props) {
        Map<String, String> settings = new HashMap<>(props);
        String id = settings.get(ReplayConfig.REPLAY_ID_CONFIG);
        if ((id == null || id.isBlank()) && props.get(NAME_CONFIG) != null) {
            settings.put(ReplayConfig.REPLAY_ID_CONFIG, props.get(NAME_CONFIG));
        }
        return settings;
    }

    /**
     * Adds the rules between settings ({@link ReplayConfig#problemsAcrossFields}) and those of a writing replay
     * ({@link ReplayConfig#problemsForWriting}) to the per-setting results, each on the setting it names, when every
     * setting is valid on its own.
     */
    static Config validate(Config perSetting, Map<String, String> props) {
        boolean valid = perSetting.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
        if (!valid) {
            return perSetting;
        }
        Map<String, String> problems = new HashMap<>(ReplayConfig.problemsAcrossFields(withReplayId(props)));
        if (problems.isEmpty()) {
            problems.putAll(new ReplayConfig(withReplayId(props)).problemsForWriting());
        }
        if (problems.isEmpty()) {
            return perSetting;
        }
        List<ConfigValue> values = new ArrayList<>(perSetting.configValues());
        for (ConfigValue value : values) {
            String problem = problems.remove(value.name());
            if (problem != null) {
                value.addErrorMessage(problem);
            }
        }
        problems.forEach((key, problem) -> {
            ConfigValue value = new ConfigValue(key, props.get(key), List.of(), new ArrayList<>());
            value.addErrorMessage(problem);
            values.add(value);
        });
        return new Config(values);
    }
}
