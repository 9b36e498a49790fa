package dev.quarantine.connect.rest;

import java.util.Map;
import java.util.Set;
import dev.quarantine.connect.rest.replays.Replays;
import dev.quarantine.connect.rest.discovery.TopicDiscovery;

/** Test access to what the monitor reads from a connector config (its discovery is package-private). */
public final class MonitorContract {

    private MonitorContract() {
    }

    public static Set<String> dlqTopics(Map<String, String> connectorConfig) {
        return TopicDiscovery.dlqTopics(connectorConfig);
    }

    public static String replayConnectorClass() {
        return Replays.CONNECTOR_CLASS;
    }
}
