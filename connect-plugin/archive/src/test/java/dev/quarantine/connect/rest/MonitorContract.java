package dev.quarantine.connect.rest;

import java.util.Map;
import java.util.Set;

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
