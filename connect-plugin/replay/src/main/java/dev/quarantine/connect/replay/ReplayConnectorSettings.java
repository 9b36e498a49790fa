package dev.quarantine.connect.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
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
     * Adds the rules between settings ({@link ReplayConfig}'s own checks) to the per-setting results, on the setting
     * named, when every setting is valid on its own.
     */
    static Config validate(Config perSetting, Map<String, String> props) {
        boolean valid = perSetting.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
        if (!valid) {
            return perSetting;
        }
        try {
            new ReplayConfig(withReplayId(props));
            return perSetting;
        } catch (ConfigException e) {
            List<ConfigValue> values = new ArrayList<>(perSetting.configValues());
            String key = settingNamed(e.getMessage(), values);
            ConfigValue value = values.stream().filter(v -> v.name().equals(key)).findFirst().orElseGet(() -> {
                ConfigValue added = new ConfigValue(key, props.get(key), List.of(), new ArrayList<>());
                values.add(added);
                return added;
            });
            value.addErrorMessage(e.getMessage());
            return new Config(values);
        }
    }

    /** The setting a ConfigException names ("Invalid value X for configuration KEY: ..."), else the replay id. */
    private static String settingNamed(String message, List<ConfigValue> values) {
        return values.stream().map(ConfigValue::name)
                .filter(name -> message != null && message.contains("configuration " + name + ":"))
                .findFirst().orElse(ReplayConfig.REPLAY_ID_CONFIG);
    }
}
