package dev.quarantine.connect.rest.replays;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayConfig;

/**
 * The settings of a replay the monitor starts, dry-runs, checks or cancels: the request's own settings, then what a
 * request cannot set: the worker's connection settings ({@link ReplayConnectorConfigs}), the destinations a replay
 * started here may write ({@link ReplayDestinations}), the dead-letter topic and the replay id.
 */
final class ReplaySettings {

    private final Map<String, Object> clientConfigs;
    private final ReplayDestinations destinations;

    ReplaySettings(Map<String, Object> clientConfigs, ReplayDestinations destinations) {
        this.clientConfigs = clientConfigs;
        this.destinations = destinations;
    }

    /**
     * For a replay connector's config, which anyone who can read connector configs sees: no secret setting.
     *
     * @throws MonitorException 501 when the worker's clients need a secret setting to connect
     */
    Map<String, String> forConnector(String topic, String id, Map<String, String> requested) {
        return of(topic, id, requested, ReplayConnectorConfigs.connectionSettings(clientConfigs));
    }

    /** For the monitor's own engine (a dry run, the check for running replays, a cancellation): secrets included. */
    Map<String, String> forOwnEngine(String topic, String id, Map<String, String> requested) {
        return of(topic, id, requested, ReplayConnectorConfigs.connectionSettingsWithSecrets(clientConfigs));
    }

    private Map<String, String> of(String topic, String id, Map<String, String> requested,
                                   Map<String, String> connection) {
        Map<String, String> settings = new LinkedHashMap<>(requested);
        settings.putAll(connection);
        settings.putAll(destinations.settings());
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, topic);
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, id);
        return settings;
    }
}
