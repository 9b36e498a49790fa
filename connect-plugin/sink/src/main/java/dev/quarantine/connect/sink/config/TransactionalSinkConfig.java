package dev.quarantine.connect.sink.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.HeaderConverter;

import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;
import dev.quarantine.connect.sink.progress.SourceTopics;
import dev.quarantine.connect.sink.write.CommitTrigger;

/** Settings of {@link TransactionalKafkaSinkConnector}, parsed once into typed accessors. */
public final class TransactionalSinkConfig extends AbstractConfig {

    /** What to do with a record the target cluster would reject. */
    public enum Tolerance {
        /** Dead-letter it in the same transaction and go on. */
        ALL,
        /** Fail the task, naming the record. */
        NONE
    }

    public static final String TOPIC_PLACEHOLDER = "${topic}";

    // Target cluster: TargetClusterGroup (the settings' docs are in their group's class)
    public static final String TARGET_BOOTSTRAP_SERVERS_CONFIG = "target.bootstrap.servers";
    public static final String TARGET_TOPIC_FORMAT_CONFIG = "target.topic.format";
    public static final String TARGET_TOPIC_FORMAT_DEFAULT = TOPIC_PLACEHOLDER;
    public static final String PRODUCERS_MEMORY_BYTES_CONFIG = "producers.memory.bytes";
    public static final long PRODUCERS_MEMORY_BYTES_DEFAULT = 64L * 1024 * 1024;
    public static final String TARGET_PRODUCER_PREFIX = "target.producer.";
    public static final String TARGET_ADMIN_PREFIX = "target.admin.";

    // Target converters: ConvertersGroup
    public static final String TARGET_KEY_CONVERTER_CONFIG = "target.key.converter";
    public static final String TARGET_VALUE_CONVERTER_CONFIG = "target.value.converter";
    public static final String TARGET_HEADER_CONVERTER_CONFIG = "target.header.converter";

    // Poison records: PoisonRecordsGroup
    public static final String SEND_ERRORS_TOLERANCE_CONFIG = "send.errors.tolerance";
    public static final String SEND_ERRORS_TOLERANCE_DEFAULT = "all";
    public static final String DLQ_TOPIC_NAME_CONFIG = "dlq.topic.name";
    public static final String DLQ_TOPIC_NAME_DEFAULT = "";
    public static final String DLQ_CONTEXT_HEADERS_ENABLE_CONFIG = "dlq.context.headers.enable";
    public static final boolean DLQ_CONTEXT_HEADERS_ENABLE_DEFAULT = true;
    public static final String DLQ_PAYLOAD_MAX_BYTES_CONFIG = "dlq.payload.max.bytes";
    public static final int DLQ_PAYLOAD_MAX_BYTES_DEFAULT = 1_000_000;

    // Transactions and progress: ProgressGroup
    public static final String TRANSACTIONAL_ID_PREFIX_CONFIG = "transactional.id.prefix";
    public static final String TRANSACTIONAL_ID_PREFIX_DEFAULT = "";
    public static final String PROGRESS_TOPIC_NAME_CONFIG = "progress.topic.name";
    public static final String PROGRESS_TOPIC_NAME_DEFAULT = "";
    public static final String PROGRESS_TOPIC_SUFFIX = ".progress.internal";
    public static final String PROGRESS_TOPIC_REPLICATION_FACTOR_CONFIG = "progress.topic.replication.factor";
    public static final short PROGRESS_TOPIC_REPLICATION_FACTOR_DEFAULT = -1;

    public static final String TRANSACTION_RETRIES_CONFIG = "transaction.retries";
    public static final int TRANSACTION_RETRIES_DEFAULT = 3;
    public static final String COMMIT_INTERVAL_MS_CONFIG = "commit.interval.ms";
    public static final long COMMIT_INTERVAL_MS_DEFAULT = 100L;
    public static final String COMMIT_MAX_RECORDS_CONFIG = "commit.max.records";
    public static final int COMMIT_MAX_RECORDS_DEFAULT = 10_000;
    public static final String PROGRESS_READ_TIMEOUT_MS_CONFIG = "progress.read.timeout.ms";
    public static final long PROGRESS_READ_TIMEOUT_MS_DEFAULT = 60_000L;

    // Target topics: TargetTopicsGroup
    public static final String TARGET_TOPIC_CREATION_PREFIX = "target.topic.creation.";
    public static final String TARGET_TOPIC_CREATION_ENABLE_CONFIG = TARGET_TOPIC_CREATION_PREFIX + "enable";
    public static final boolean TARGET_TOPIC_CREATION_ENABLE_DEFAULT = true;
    public static final String TARGET_TOPIC_CREATION_PARTITIONS_CONFIG = TARGET_TOPIC_CREATION_PREFIX + "partitions";
    public static final int TARGET_TOPIC_CREATION_PARTITIONS_DEFAULT = -1;
    public static final String TARGET_TOPIC_CREATION_REPLICATION_FACTOR_CONFIG =
            TARGET_TOPIC_CREATION_PREFIX + "replication.factor";
    public static final short TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DEFAULT = -1;
    public static final String TARGET_PARTITION_MAPPING_CONFIG = "target.partition.mapping";
    public static final String TARGET_PARTITION_MAPPING_DEFAULT = "hash";

    // Fault handling: FaultsGroup
    public static final String TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG = "transient.errors.timeout.ms";
    public static final long TRANSIENT_ERRORS_TIMEOUT_MS_DEFAULT = 300_000L;
    public static final String DLQ_MAX_RATIO_CONFIG = "dlq.max.ratio";
    public static final double DLQ_MAX_RATIO_DEFAULT = 0.5;
    public static final String DLQ_WINDOW_RECORDS_CONFIG = "dlq.window.records";
    public static final int DLQ_WINDOW_RECORDS_DEFAULT = 1000;

    /** Set by the connector on each task's config: the task's number, for dead-letter headers and client ids. */
    public static final String TASK_ID_CONFIG = "quarantine.task.id";
    /** The connector's name, as Connect passes it. */
    static final String NAME_CONFIG = "name";

    public TransactionalSinkConfig(Map<String, String> props) {
        super(configDef(), props);
    }

    /** Parses {@code props} and checks the rules between settings; throws ConfigException naming the setting. */
    public static TransactionalSinkConfig parse(Map<String, String> props) {
        TransactionalSinkConfig config = new TransactionalSinkConfig(props);
        Optional<String> problem = ConfigRules.crossFieldProblem(config);
        if (problem.isPresent()) {
            throw new ConfigException(problem.get());
        }
        return config;
    }

    /** Every setting, with documentation, group, order and validator, group by group. */
    public static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        TargetClusterGroup.define(def);
        PoisonRecordsGroup.define(def);
        ProgressGroup.define(def);
        ConvertersGroup.define(def);
        TargetTopicsGroup.define(def);
        FaultsGroup.define(def);
        return def;
    }

    public String connectorName() {
        return originalsStrings().getOrDefault(NAME_CONFIG, "transactional-kafka-sink");
    }

    public String taskId() {
        return originalsStrings().getOrDefault(TASK_ID_CONFIG, "0");
    }

    public String targetBootstrapServers() {
        return getString(TARGET_BOOTSTRAP_SERVERS_CONFIG);
    }

    public TopicFormat topicFormat() {
        return new TopicFormat(getString(TARGET_TOPIC_FORMAT_CONFIG));
    }

    public Tolerance tolerance() {
        return Tolerance.valueOf(getString(SEND_ERRORS_TOLERANCE_CONFIG).toUpperCase(Locale.ROOT));
    }

    public Optional<String> dlqTopic() {
        return nonEmpty(getString(DLQ_TOPIC_NAME_CONFIG));
    }

    public boolean dlqContextHeaders() {
        return getBoolean(DLQ_CONTEXT_HEADERS_ENABLE_CONFIG);
    }

    public int dlqPayloadMaxBytes() {
        return getInt(DLQ_PAYLOAD_MAX_BYTES_CONFIG);
    }

    /** The prefix of transactional ids and progress keys: the setting, or the connector's name. */
    public String transactionalIdPrefix() {
        return nonEmpty(getString(TRANSACTIONAL_ID_PREFIX_CONFIG)).orElse(connectorName());
    }

    /** The progress topic: the setting, or {@code <connector name>.progress.internal}. */
    public String progressTopic() {
        return nonEmpty(getString(PROGRESS_TOPIC_NAME_CONFIG)).orElseGet(() -> defaultProgressTopic(connectorName()));
    }

    /** The replication factor of a progress topic the connector creates; empty means the target's default. */
    public Optional<Short> progressTopicReplicationFactor() {
        return replicationFactor(getShort(PROGRESS_TOPIC_REPLICATION_FACTOR_CONFIG));
    }

    /** How target topics are created and records mapped onto their partitions. */
    public TargetTopicSettings targetTopicSettings() {
        return TargetTopicsGroup.settings(this);
    }

    /**
     * Admin configs for the source cluster, to read a source topic's partition count: the consumer.override.*
     * client settings when the connector names its source cluster with consumer.override.bootstrap.servers, else
     * the target cluster's (the source is then assumed to be the same cluster).
     */
    public Map<String, Object> sourceAdminConfigs() {
        return ClientConfigs.sourceAdmin(this);
    }

    /**
     * The connector's consumer group when the source cluster is not named by consumer.override.bootstrap.servers
     * ({@link #sourceAdminConfigs()} then reach the target cluster, which is the source only if it holds the group,
     * see {@link SourceTopics}); empty when it is named.
     */
    public Optional<String> unnamedSourceGroup() {
        return originals().containsKey(ConfigRules.SOURCE_BOOTSTRAP_OVERRIDE) ? Optional.empty()
                : Optional.of(sourceGroupId());
    }

    /**
     * The consumer group of the connector's tasks on the source cluster, as Connect names it: consumer.override.group.id
     * when the connector overrides it, else {@code connect-<name>}.
     */
    public String sourceGroupId() {
        Object group = originals().get(ConfigRules.CONSUMER_OVERRIDE_PREFIX + "group.id");
        return group == null ? "connect-" + connectorName() : String.valueOf(group);
    }

    /**
     * Where the worker's consumer starts a partition without committed offsets, as the connector overrides it
     * (consumer.override.auto.offset.reset), else Connect's default for sink connectors, earliest.
     */
    public String sourceOffsetReset() {
        Object reset = originals().get(SourceTopics.RESET_OVERRIDE);
        return reset == null ? "earliest" : String.valueOf(reset);
    }

    /** {@code <name>.progress.internal}, with characters a topic name cannot hold replaced, within 249 characters. */
    public static String defaultProgressTopic(String connectorName) {
        String base = connectorName.replaceAll("[^a-zA-Z0-9._-]", "_");
        int room = 249 - PROGRESS_TOPIC_SUFFIX.length();
        return (base.length() > room ? base.substring(0, room) : base) + PROGRESS_TOPIC_SUFFIX;
    }

    /** A replication factor setting: -1 (the cluster's default) is empty. */
    static Optional<Short> replicationFactor(short value) {
        return value == -1 ? Optional.empty() : Optional.of(value);
    }

    public long producersMemoryBytes() {
        return getLong(PRODUCERS_MEMORY_BYTES_CONFIG);
    }

    /** When a task writes the records it collected: {@code commit.interval.ms}, its count and size bounds. */
    public CommitTrigger commitTrigger() {
        return new CommitTrigger(Duration.ofMillis(getLong(COMMIT_INTERVAL_MS_CONFIG)),
                getInt(COMMIT_MAX_RECORDS_CONFIG), producersMemoryBytes());
    }

    public Duration progressReadTimeout() {
        return Duration.ofMillis(getLong(PROGRESS_READ_TIMEOUT_MS_CONFIG));
    }

    /** Producer configs for the target cluster: target.producer.* over the bootstrap servers. */
    public Map<String, Object> producerConfigs() {
        return ClientConfigs.targetProducer(this);
    }

    /** Admin (and progress-reading consumer) configs for the target cluster: target.admin.* over the servers. */
    public Map<String, Object> adminConfigs() {
        return ClientConfigs.targetAdmin(this);
    }

    public Converter keyConverter() {
        return ConvertersGroup.converter(this, TARGET_KEY_CONVERTER_CONFIG, true);
    }

    public Converter valueConverter() {
        return ConvertersGroup.converter(this, TARGET_VALUE_CONVERTER_CONFIG, false);
    }

    public HeaderConverter headerConverter() {
        return ConvertersGroup.headerConverter(this);
    }

    private static Optional<String> nonEmpty(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /** {@code consumer.override.max.poll.interval.ms}, as set or Kafka's default. */
    public Duration maxPollInterval() {
        return TimeoutRules.clientTimeout(this, TimeoutRules.ClientTimeout.MAX_POLL_INTERVAL);
    }

    /** {@code target.producer.max.block.ms}, as set or Kafka's default. */
    public Duration maxBlock() {
        return TimeoutRules.clientTimeout(this, TimeoutRules.ClientTimeout.MAX_BLOCK);
    }

    /** {@code target.admin.default.api.timeout.ms}, as set or Kafka's default: the bound of a fence. */
    public Duration adminApiTimeout() {
        return TimeoutRules.clientTimeout(this, TimeoutRules.ClientTimeout.ADMIN_API);
    }

    /** {@code consumer.override.session.timeout.ms}, as set or Kafka's default: the delay of a reclaim. */
    public Duration sessionTimeout() {
        return TimeoutRules.clientTimeout(this, TimeoutRules.ClientTimeout.SESSION);
    }

    public Duration transientErrorsTimeout() {
        return Duration.ofMillis(getLong(TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG));
    }

    public double dlqMaxRatio() {
        return getDouble(DLQ_MAX_RATIO_CONFIG);
    }

    public int dlqWindowRecords() {
        return getInt(DLQ_WINDOW_RECORDS_CONFIG);
    }
}
