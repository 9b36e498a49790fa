package dev.quarantine.connect.rest.replays;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

import org.apache.kafka.common.config.types.Password;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayConfig;

/**
 * The monitor's rules about replay connector configs: which connector is one of its replays, what a request decided
 * in it, and which of the worker's client settings it may hold ({@link ReplayClientSettings}) or only the monitor's
 * own clients may use.
 */
final class ReplayConnectorConfigs {

    private ReplayConnectorConfigs() {
    }

    /** Whether {@code connector} is a replay of {@code topic} keeping its progress where the monitor reads it. */
    static boolean isReplayOf(String topic, Optional<Map<String, String>> connector) {
        return connector.filter(c -> Replays.CONNECTOR_CLASS.equals(c.get("connector.class"))
                && topic.equals(c.get(ReplayConfig.DLQ_TOPIC_CONFIG))
                && Objects.equals(ReplayConfig.PROGRESS_TOPIC_DEFAULT, c.getOrDefault(
                        ReplayConfig.PROGRESS_TOPIC_CONFIG, ReplayConfig.PROGRESS_TOPIC_DEFAULT))).isPresent();
    }

    /** What a request decided in a replay connector's config: its {@code replay.*} and DLQ settings. */
    static Map<String, String> replaySettings(Map<String, String> connector) {
        Map<String, String> decided = new TreeMap<>();
        connector.forEach((key, value) -> {
            if (key.startsWith("replay.") || key.equals(ReplayConfig.DLQ_TOPIC_CONFIG)) {
                decided.put(key, value);
            }
        });
        return decided;
    }

    /**
     * The worker's client settings that a connector config may hold ({@link ReplayClientSettings}: never one of type
     * PASSWORD). @throws MonitorException 501 when the worker's clients need a withheld one to connect
     */
    static Map<String, String> connectionSettings(Map<String, Object> clientConfigs) {
        ReplayClientSettings settings = ReplayClientSettings.of(clientConfigs);
        if (!settings.needed().isEmpty()) {
            throw MonitorException.unsupported("this worker reaches Kafka with secret settings ("
                    + settings.needed() + "), which a replay connector created here would show to anyone who can"
                    + " read connector configs; create " + Replays.CONNECTOR_CLASS + " yourself, with the secrets"
                    + " behind a config provider");
        }
        return settings.copied();
    }

    /** Every client setting of the worker, secrets included: for the monitor's own clients, never a config. */
    static Map<String, String> connectionSettingsWithSecrets(Map<String, Object> clientConfigs) {
        Map<String, String> settings = new LinkedHashMap<>();
        clientConfigs.forEach((key, value) -> {
            if (value != null) {
                settings.put(key, value instanceof Password password ? password.value() : value.toString());
            }
        });
        return settings;
    }
}
