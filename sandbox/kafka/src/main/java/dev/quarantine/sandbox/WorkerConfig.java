package dev.quarantine.sandbox;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The worker.properties of a sandbox Connect worker: distributed mode on one broker (internal topics of replication
 * factor 1 named after the group), ByteArrayConverter for keys, values and headers, the REST API on 127.0.0.1, plugins
 * only through {@code plugin.path} ({@code plugin.discovery=service_load}), and fast rebalances and flushes.
 */
final class WorkerConfig {

    private WorkerConfig() {
    }

    /** The sandbox defaults for a worker of group {@code id}, any of which {@code overrides} may replace. */
    static Map<String, String> properties(LocalKafka kafka, String id, int restPort, Path pluginPath,
                                          Map<String, String> overrides) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("group.id", id);
        props.put("config.storage.topic", id + "-configs");
        props.put("offset.storage.topic", id + "-offsets");
        props.put("status.storage.topic", id + "-status");
        props.put("config.storage.replication.factor", "1");
        props.put("offset.storage.replication.factor", "1");
        props.put("offset.storage.partitions", "5");
        props.put("status.storage.replication.factor", "1");
        props.put("status.storage.partitions", "1");
        props.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        props.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        props.put("header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        props.put("listeners", "http://127.0.0.1:" + restPort);
        props.put("rest.advertised.host.name", "127.0.0.1");
        props.put("rest.advertised.port", String.valueOf(restPort));
        props.put("plugin.path", pluginPath.toAbsolutePath().toString());
        props.put("plugin.discovery", "service_load");
        props.put("offset.flush.interval.ms", "2000");
        props.put("scheduled.rebalance.max.delay.ms", "0");
        props.put("session.timeout.ms", "6000");
        props.put("heartbeat.interval.ms", "2000");
        props.put("consumer.session.timeout.ms", "6000");
        props.put("consumer.heartbeat.interval.ms", "2000");
        props.put("task.shutdown.graceful.timeout.ms", "5000");
        props.putAll(overrides);
        return props;
    }
}
