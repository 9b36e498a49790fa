package dev.quarantine.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The three connectors {@link SinkVsMirrorMakerThroughput} compares, each copying the same input topic on the same
 * broker to topics of its own: MirrorMaker 2's MirrorSourceConnector with exactly-once source support, the same
 * connector at least once (on a worker without exactly-once source support), and our transactional sink with its
 * dead-letter topic. Apart from the guarantee, both sides run with the same defaults: the worker's converters
 * (ByteArrayConverter), Kafka's consumer and producer defaults (500 records a poll, 16 KiB batches, no
 * compression), {@code read_committed} on the source side, and the same {@code tasks.max}.
 */
enum SinkVsMirrorMakerMode {

    MIRROR_EXACTLY_ONCE("MM2 MirrorSourceConnector, exactly once", "mm2eos", true),
    MIRROR_AT_LEAST_ONCE("MM2 MirrorSourceConnector, at least once", "mm2alos", false),
    SINK("TransactionalKafkaSinkConnector, 1% poison", "sink", true);

    static final String MIRROR_CONNECTOR = "org.apache.kafka.connect.mirror.MirrorSourceConnector";
    static final String SINK_CONNECTOR = "dev.quarantine.connect.sink.TransactionalKafkaSinkConnector";
    /** The target topic of our sink accepts timestamps at most an hour old: older inputs are its poison. */
    static final long SINK_TIMESTAMP_WINDOW_MS = TimeUnit.HOURS.toMillis(1);
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

    final String label;
    final String slug;
    /** Whether it runs on the worker with {@code exactly.once.source.support=enabled}. */
    final boolean onExactlyOnceWorker;

    SinkVsMirrorMakerMode(String label, String slug, boolean onExactlyOnceWorker) {
        this.label = label;
        this.slug = slug;
        this.onExactlyOnceWorker = onExactlyOnceWorker;
    }

    /**
     * The topic the connector named {@code name} writes {@code input} to: MirrorMaker 2's default replication policy
     * names it {@code <source alias>.<topic>}, and the sink's {@code target.topic.format} follows the same pattern.
     */
    String targetTopic(String name, String input) {
        return name + "." + input;
    }

    /** The topics whose committed records count as done: the target, and for the sink its dead-letter topic. */
    List<String> countedTopics(String name, String input) {
        return this == SINK ? List.of(targetTopic(name, input), deadLetterTopic(name))
                : List.of(targetTopic(name, input));
    }

    static String deadLetterTopic(String name) {
        return name + "-dlq";
    }

    /** The target topic's configs: the sink's rejects old timestamps, MirrorMaker's has the broker defaults. */
    Map<String, String> targetTopicConfigs() {
        return this == SINK ? Map.of("message.timestamp.before.max.ms", String.valueOf(SINK_TIMESTAMP_WINDOW_MS))
                : Map.of();
    }

    Map<String, String> connectorConfig(String name, String input, String bootstrapServers, int tasks) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("tasks.max", String.valueOf(tasks));
        config.put("key.converter", BYTES);
        config.put("value.converter", BYTES);
        config.put("header.converter", BYTES);
        if (this == SINK) {
            config.put("connector.class", SINK_CONNECTOR);
            config.put("topics", input);
            config.put("consumer.override.isolation.level", "read_committed");
            config.put("target.bootstrap.servers", bootstrapServers);
            config.put("target.topic.format", name + ".${topic}");
            config.put("send.errors.tolerance", "all");
            config.put("dlq.topic.name", deadLetterTopic(name));
            config.put("transactional.id.prefix", name);
        } else {
            mirrorConfig(config, name, input, bootstrapServers);
        }
        config.putAll(extraSettings(this == SINK ? "sink.config" : "mirror.config"));
        return config;
    }

    /** Settings added to every connector of one side, {@code -Dsink.config=k=v,k=v} or {@code -Dmirror.config=...}. */
    static Map<String, String> extraSettings(String property) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : System.getProperty(property, "").split(",")) {
            if (!pair.isBlank()) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("-D" + property + " takes key=value pairs separated by commas,"
                            + " not " + pair);
                }
                settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return settings;
    }

    /**
     * MirrorSourceConnector on one cluster: source and target are the same broker under two aliases, the source
     * alias (the connector's name) prefixes the copy. Topic and ACL syncing, topic refreshes and offset syncs are
     * off; the target topic exists before the connector starts, as the sink's does.
     */
    private void mirrorConfig(Map<String, String> config, String name, String input, String bootstrapServers) {
        config.put("connector.class", MIRROR_CONNECTOR);
        config.put("source.cluster.alias", name);
        config.put("target.cluster.alias", "bench");
        config.put("source.cluster.bootstrap.servers", bootstrapServers);
        config.put("target.cluster.bootstrap.servers", bootstrapServers);
        config.put("topics", input);
        config.put("replication.factor", "1");
        config.put("emit.offset-syncs.enabled", "false");
        config.put("sync.topic.configs.enabled", "false");
        config.put("sync.topic.acls.enabled", "false");
        config.put("refresh.topics.enabled", "false");
        // MirrorSourceConnector declares exactly-once support only when its source consumer reads committed data
        config.put("source.consumer.isolation.level", "read_committed");
        if (this == MIRROR_EXACTLY_ONCE) {
            config.put("exactly.once.support", "required");
        }
    }
}
