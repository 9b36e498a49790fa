package dev.quarantine.sandbox;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server.properties of the sandbox broker: one node in KRaft combined mode (broker and controller) on
 * 127.0.0.1, no topic created on first use, internal topics of replication factor 1 and few partitions, fast group
 * joins, flushing left to the OS and a small log cleaner key map; or a broker-only node joining that node's quorum.
 */
final class BrokerConfig {

    private BrokerConfig() {
    }

    /** The sandbox defaults of the combined node (node 1), any of which {@code overrides} may replace. */
    static Map<String, String> properties(Path logDirs, int brokerPort, int controllerPort,
                                          Map<String, String> overrides) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        return common(props, logDirs, brokerPort, controllerPort, overrides);
    }

    /** A broker-only node {@code nodeId} of the quorum whose controller listens on {@code controllerPort}. */
    static Map<String, String> brokerOnly(int nodeId, Path logDirs, int brokerPort, int controllerPort,
                                          Map<String, String> overrides) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("process.roles", "broker");
        props.put("node.id", String.valueOf(nodeId));
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        return common(props, logDirs, brokerPort, controllerPort, overrides);
    }

    private static Map<String, String> common(Map<String, String> props, Path logDirs, int brokerPort,
                                              int controllerPort, Map<String, String> overrides) {
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", logDirs.toString());
        props.put("auto.create.topics.enable", "false");
        props.put("num.partitions", "1");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "3");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "3");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));
        // the controller's no-op record every 500 ms (KIP-835: metrics of the quorum's health) is a third of an idle
        // node's CPU (2 to 3 % of a core each, a test run's brokers being idle most of their lives)
        props.put("metadata.max.idle.interval.ms", "5000");
        // the log cleaner's key map: Kafka's 128 MiB is allocated and zeroed at every start (1.3 to 1.7 s of each
        // start of a loaded 2-core machine's brokers, most of them restarted after kill -9); 8 MiB holds 300,000 keys
        props.put("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        props.putAll(overrides);
        return props;
    }
}
