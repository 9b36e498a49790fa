package dev.quarantine.connect.sink.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.HeaderConverter;

import dev.quarantine.connect.sink.BytesOrStringHeaderConverter;
import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;
import dev.quarantine.connect.sink.progress.SourceTopics;
import dev.quarantine.connect.sink.write.CommitTrigger;
import dev.quarantine.txn.DeadLetterRecordBuilder;

/** Settings of {@link TransactionalKafkaSinkConnector}, parsed once into typed accessors. */
public final class TransactionalSinkConfig extends AbstractConfig {

    /** What to do with a record the target cluster would reject. */
    public enum Tolerance {
        /** Dead-letter it in the same transaction and go on. */
        ALL,
        /** Fail the task, naming the record. */
        NONE
    }

    static final String TARGET_GROUP = "Target cluster";
    static final String ERRORS_GROUP = "Poison records";
    static final String TRANSACTIONS_GROUP = "Transactions and progress";
    static final String CONVERTERS_GROUP = "Target converters";
    static final String TARGET_TOPICS_GROUP = "Target topics";
    static final String FAULTS_GROUP = "Fault handling";

    public static final String TOPIC_PLACEHOLDER = "${topic}";

    public static final String TARGET_BOOTSTRAP_SERVERS_CONFIG = "target.bootstrap.servers";
    public static final String TARGET_BOOTSTRAP_SERVERS_DOC = "host:port pairs of the cluster to write to. Records,"
            + " dead letters and the connector's progress all go to this cluster, in one transaction per source"
            + " partition and batch. Connection and security settings for it are given with the target.producer."
            + " and target.admin. prefixes (for example target.producer.security.protocol). The source side needs"
            + " one setting outside this list: consumer.override.isolation.level=read_committed, without which the"
            + " worker's consumer would hand the connector records of aborted source transactions; validation and"
            + " start refuse a connector without it.";

    public static final String TARGET_TOPIC_FORMAT_CONFIG = "target.topic.format";
    public static final String TARGET_TOPIC_FORMAT_DEFAULT = TOPIC_PLACEHOLDER;
    public static final String TARGET_TOPIC_FORMAT_DOC = "The target topic of a record: this text with "
            + TOPIC_PLACEHOLDER + " replaced by the record's topic (after transforms). The record keeps its"
            + " partition where the target topic has it (otherwise see target.partition.mapping); a missing target"
            + " topic is created first (see target.topic.creation.enable). A format that writes a topic onto itself"
            + " is refused.";

    public static final String PRODUCERS_MEMORY_BYTES_CONFIG = "producers.memory.bytes";
    public static final long PRODUCERS_MEMORY_BYTES_DEFAULT = 64L * 1024 * 1024;
    public static final String PRODUCERS_MEMORY_BYTES_DOC = "The memory a task's target producers (one per source"
            + " partition) share for their record batches: each gets batch.size = this divided by the number of"
            + " partitions the task writes, between 16384 and 262144, and buffer.memory = the same share, at most"
            + " 33554432 and at least batch.size and max.request.size (so the same records are poison as with"
            + " Kafka's defaults). With the default, a task with up to 256 partitions uses 256 KiB batches, one"
            + " with 1,000 partitions 64 KiB batches. target.producer.batch.size and target.producer.buffer.memory,"
            + " when set, win. It also bounds the records a task collects for its next transactions (see"
            + " commit.max.records).";

    public static final String TARGET_PRODUCER_PREFIX = "target.producer.";
    public static final String TARGET_ADMIN_PREFIX = "target.admin.";

    public static final String TARGET_KEY_CONVERTER_CONFIG = "target.key.converter";
    public static final String TARGET_VALUE_CONVERTER_CONFIG = "target.value.converter";
    public static final String TARGET_HEADER_CONVERTER_CONFIG = "target.header.converter";
    static final String TARGET_CONVERTER_DOC = "Turns the record's %s back into bytes for the target cluster. With"
            + " the recommended setup (the connector's key.converter, value.converter and header.converter all"
            + " org.apache.kafka.connect.converters.ByteArrayConverter) the default writes the bytes exactly as they"
            + " arrived. With other connector converters, set a matching converter here; its settings take the"
            + " prefix %s.";

    public static final String SEND_ERRORS_TOLERANCE_CONFIG = "send.errors.tolerance";
    public static final String SEND_ERRORS_TOLERANCE_DEFAULT = "all";
    public static final String SEND_ERRORS_TOLERANCE_DOC = "all: a record the target cluster would reject (too"
            + " large for the topic, a null key for a compacted topic, a timestamp out of the topic's range, a"
            + " partition it does not have, a conversion failure, ...) goes to dlq.topic.name in the same"
            + " transaction, and the batch commits. none: the task fails on the first such record, naming its"
            + " topic, partition and offset; nothing of its batch is committed.";

    public static final String DLQ_TOPIC_NAME_CONFIG = "dlq.topic.name";
    public static final String DLQ_TOPIC_NAME_DEFAULT = "";
    public static final String DLQ_TOPIC_NAME_DOC = "The dead-letter topic, on the target cluster (it joins the same"
            + " transaction as the records). Required with send.errors.tolerance=all. It must exist.";

    public static final String DLQ_CONTEXT_HEADERS_ENABLE_CONFIG = "dlq.context.headers.enable";
    public static final boolean DLQ_CONTEXT_HEADERS_ENABLE_DEFAULT = true;
    public static final String DLQ_CONTEXT_HEADERS_ENABLE_DOC = "Whether dead letters carry Kafka Connect's"
            + " __connect.errors.* headers (source topic, partition, offset, connector, task, exception class,"
            + " message and stack trace). The __quarantine.* headers (error category, target topic, original size,"
            + " what was truncated) are always added: they mark a record as a dead letter.";

    public static final String DLQ_PAYLOAD_MAX_BYTES_CONFIG = "dlq.payload.max.bytes";
    public static final int DLQ_PAYLOAD_MAX_BYTES_DEFAULT = 1_000_000;
    public static final String DLQ_PAYLOAD_MAX_BYTES_DOC = "The largest dead-letter record (key, value and headers)."
            + " A larger one is truncated (stack trace, then value, then key, then the original headers), never"
            + " dropped; __quarantine.payload.truncated says what was cut. Keep it at or below the dead-letter"
            + " topic's max.message.bytes and target.producer.max.request.size.";

    public static final String TRANSACTIONAL_ID_PREFIX_CONFIG = "transactional.id.prefix";
    public static final String TRANSACTIONAL_ID_PREFIX_DEFAULT = "";
    public static final String TRANSACTIONAL_ID_PREFIX_DOC = "Prefix of the transactional ids and progress keys"
            + " on the target cluster; empty means the connector's name. Each source partition gets transactional"
            + " id and progress key <prefix>:<topic>-<partition>, so a task instance that lost a partition is"
            + " fenced when the partition's new owner starts. Keep it unique per connector and stable across"
            + " restarts: a new prefix starts without progress.";

    public static final String PROGRESS_TOPIC_NAME_CONFIG = "progress.topic.name";
    public static final String PROGRESS_TOPIC_NAME_DEFAULT = "";
    public static final String PROGRESS_TOPIC_SUFFIX = ".progress.internal";
    public static final String PROGRESS_TOPIC_NAME_DOC = "The connector's own topic on the target cluster that holds"
            + " its progress: each transaction writes one record to its partition 0, keyed by the transactional id"
            + " <prefix>:<topic>-<partition>, holding the next source offset (format=1 key=value lines), in the"
            + " same transaction as the output. It must be compacted and must not be the dead-letter topic."
            + " Empty means <connector name>"
            + PROGRESS_TOPIC_SUFFIX + " (characters a topic name cannot hold become _). The connector creates it"
            + " when it starts, if missing: one partition, compacted, 1 MiB segments, replication factor"
            + " progress.topic.replication.factor. Deleting it deletes the progress: a task that finds it missing,"
            + " created again or not compacted fails, naming it.";

    public static final String PROGRESS_TOPIC_REPLICATION_FACTOR_CONFIG = "progress.topic.replication.factor";
    public static final short PROGRESS_TOPIC_REPLICATION_FACTOR_DEFAULT = -1;
    public static final String PROGRESS_TOPIC_REPLICATION_FACTOR_DOC = "Replication factor of the progress topic"
            + " when the connector creates it; -1 means the target cluster's default.replication.factor.";

    public static final String TARGET_TOPIC_CREATION_PREFIX = "target.topic.creation.";
    public static final String TARGET_TOPIC_CREATION_ENABLE_CONFIG = TARGET_TOPIC_CREATION_PREFIX + "enable";
    public static final boolean TARGET_TOPIC_CREATION_ENABLE_DEFAULT = true;
    public static final String TARGET_TOPIC_CREATION_ENABLE_DOC = "Whether the connector creates a target topic that"
            + " does not exist, before anything is sent to it, as MirrorMaker 2 does: with as many partitions as its"
            + " source topic, and the replication factor and topic configs below. Any other setting with the prefix "
            + TARGET_TOPIC_CREATION_PREFIX + " is a topic config of the topics it creates (for example "
            + TARGET_TOPIC_CREATION_PREFIX + "cleanup.policy=compact, as Connect's topic.creation.default.*). false:"
            + " a missing target topic is left alone, so its records are poison records, or, on brokers with"
            + " auto.create.topics.enable=true, the broker creates it at the first send with its num.partitions.";

    public static final String TARGET_TOPIC_CREATION_PARTITIONS_CONFIG = TARGET_TOPIC_CREATION_PREFIX + "partitions";
    public static final int TARGET_TOPIC_CREATION_PARTITIONS_DEFAULT = -1;
    public static final String TARGET_TOPIC_CREATION_PARTITIONS_DOC = "Partitions of a target topic the connector"
            + " creates. -1: as many as its source topic, read from the source cluster (the cluster named by"
            + " consumer.override.bootstrap.servers and consumer.override.* client settings, else the target"
            + " cluster, which the source cluster is then assumed to be); where the source topic cannot be found"
            + " there, the target cluster's num.partitions.";

    public static final String TARGET_TOPIC_CREATION_REPLICATION_FACTOR_CONFIG =
            TARGET_TOPIC_CREATION_PREFIX + "replication.factor";
    public static final short TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DEFAULT = -1;
    public static final String TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DOC = "Replication factor of a target"
            + " topic the connector creates; -1 means the target cluster's default.replication.factor.";

    public static final String TARGET_PARTITION_MAPPING_CONFIG = "target.partition.mapping";
    public static final String TARGET_PARTITION_MAPPING_DEFAULT = "hash";
    public static final String TARGET_PARTITION_MAPPING_DOC = "The target partition of a record whose partition the"
            + " target topic does not have (the target topic has fewer partitions than the source). A record whose"
            + " partition exists in the target topic always keeps it. hash: Kafka's default partitioner on the"
            + " key bytes (murmur2 modulo the target's partition count; a record without a key goes to its"
            + " partition modulo that count), so no good record is dead-lettered and a key always lands in the same"
            + " partition. keep: the record keeps its partition and is a poison record (dead-lettered); validation"
            + " refuses keep for a listed topic whose target topic has fewer partitions than its source.";

    public static final String TRANSACTION_RETRIES_CONFIG = "transaction.retries";
    public static final int TRANSACTION_RETRIES_DEFAULT = 3;
    public static final String TRANSACTION_RETRIES_DOC = "How many times a batch is retried within one put when the"
            + " target cluster rejects records the up-front checks let through (the transaction is aborted, the"
            + " rejected records are dead-lettered, the rest is written again) or fails transiently. After that,"
            + " the batch is handed back to the worker to be delivered again; so it is, retries left or not, once"
            + " consumer.override.max.poll.interval.ms less three times target.producer.max.block.ms have passed"
            + " since the put began (at least one attempt), so that a put does not outlive the worker consumer's poll interval.";

    public static final String COMMIT_INTERVAL_MS_CONFIG = "commit.interval.ms";
    public static final long COMMIT_INTERVAL_MS_DEFAULT = 100L;
    public static final String COMMIT_INTERVAL_MS_DOC = "How long a task collects records before it writes them:"
            + " the records of several polls go into one transaction per source partition, written when the oldest"
            + " record has waited this long, or earlier when commit.max.records records, or records of an"
            + " estimated producers.memory.bytes, are waiting. A record becomes visible to read_committed"
            + " readers of the target about this long after the worker polled it, plus the time to commit. 0: one"
            + " transaction per partition for each batch the worker delivers (each put). Must be below"
            + " target.producer.transaction.timeout.ms. Waiting records are not committed: when the partition is"
            + " revoked or the task stops, they are read again from the committed progress.";

    public static final String COMMIT_MAX_RECORDS_CONFIG = "commit.max.records";
    public static final int COMMIT_MAX_RECORDS_DEFAULT = 10_000;
    public static final String COMMIT_MAX_RECORDS_DOC = "How many records a task collects (over all its partitions)"
            + " before it writes them without waiting for commit.interval.ms. The records waiting are also bounded"
            + " by their estimated size: the task writes once the bytes of their keys, values and header values"
            + " (the lengths of byte arrays, the characters of strings; other types count nothing) reach"
            + " producers.memory.bytes.";

    public static final String PROGRESS_READ_TIMEOUT_MS_CONFIG = "progress.read.timeout.ms";
    public static final long PROGRESS_READ_TIMEOUT_MS_DEFAULT = 60_000L;
    public static final String PROGRESS_READ_TIMEOUT_MS_DOC = "How long a task waits, when it is given partitions,"
            + " to read their committed progress from the target cluster (a transaction still being completed makes"
            + " the read wait, as does a transaction of another partition still open on the progress topic). On"
            + " timeout it never guesses a starting offset: the partition is opened again when the worker delivers"
            + " its records, as any transient failure, until transient.errors.timeout.ms. With"
            + " target.producer.max.block.ms it must stay below consumer.override.max.poll.interval.ms.";

    public static final String TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG = "transient.errors.timeout.ms";
    public static final long TRANSIENT_ERRORS_TIMEOUT_MS_DEFAULT = 300_000L;
    public static final String TRANSIENT_ERRORS_TIMEOUT_MS_DOC = "How long writing may keep failing with transient"
            + " errors (timeouts, an unavailable leader, a converter's schema registry outage) before the task"
            + " fails. Until then each failed batch is handed back to the worker and delivered again a second later;"
            + " such records are never dead-lettered. Partitions that fail to open transiently are retried within"
            + " it too; it must be above target.producer.transaction.timeout.ms.";

    public static final String DLQ_MAX_RATIO_CONFIG = "dlq.max.ratio";
    public static final double DLQ_MAX_RATIO_DEFAULT = 0.5;
    public static final String DLQ_MAX_RATIO_DOC = "The breaker: when more than this share of the task's last "
            + "dlq.window.records records were dead-lettered, the task fails with a message saying what most of them"
            + " failed with, instead of draining the stream into the dead-letter topic (a deleted or misconfigured"
            + " target topic makes every record look like poison). 1.0 turns the breaker off.";

    public static final String DLQ_WINDOW_RECORDS_CONFIG = "dlq.window.records";
    public static final int DLQ_WINDOW_RECORDS_DEFAULT = 1000;
    public static final String DLQ_WINDOW_RECORDS_DOC = "How many of a task's most recent records the breaker of "
            + "dlq.max.ratio looks at. Records not yet seen count as written, so a few poison records at the start do"
            + " not trip it.";

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

    /** Every setting, with documentation, group, order and validator. */
    public static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        int order = 0;
        def.define(TARGET_BOOTSTRAP_SERVERS_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE,
                new ConfigDef.NonEmptyString(), Importance.HIGH, TARGET_BOOTSTRAP_SERVERS_DOC, TARGET_GROUP,
                ++order, Width.LONG, "Target bootstrap servers");
        def.define(TARGET_TOPIC_FORMAT_CONFIG, Type.STRING, TARGET_TOPIC_FORMAT_DEFAULT, Validators.TOPIC_FORMAT,
                Importance.HIGH, TARGET_TOPIC_FORMAT_DOC, TARGET_GROUP, ++order, Width.MEDIUM, "Target topic format");
        def.define(PRODUCERS_MEMORY_BYTES_CONFIG, Type.LONG, PRODUCERS_MEMORY_BYTES_DEFAULT,
                ConfigDef.Range.between(1024L * 1024, 64L * 1024 * 1024 * 1024), Importance.LOW,
                PRODUCERS_MEMORY_BYTES_DOC, TARGET_GROUP, ++order, Width.SHORT, "Producers' memory (bytes)");
        order = 0;
        def.define(SEND_ERRORS_TOLERANCE_CONFIG, Type.STRING, SEND_ERRORS_TOLERANCE_DEFAULT,
                ConfigDef.CaseInsensitiveValidString.in("all", "none"), Importance.HIGH, SEND_ERRORS_TOLERANCE_DOC,
                ERRORS_GROUP, ++order, Width.SHORT, "Send errors tolerance");
        def.define(DLQ_TOPIC_NAME_CONFIG, Type.STRING, DLQ_TOPIC_NAME_DEFAULT, Validators.OPTIONAL_TOPIC_NAME,
                Importance.HIGH, DLQ_TOPIC_NAME_DOC, ERRORS_GROUP, ++order, Width.MEDIUM, "Dead-letter topic");
        def.define(DLQ_CONTEXT_HEADERS_ENABLE_CONFIG, Type.BOOLEAN, DLQ_CONTEXT_HEADERS_ENABLE_DEFAULT,
                Importance.MEDIUM, DLQ_CONTEXT_HEADERS_ENABLE_DOC, ERRORS_GROUP, ++order, Width.SHORT,
                "Dead-letter context headers");
        def.define(DLQ_PAYLOAD_MAX_BYTES_CONFIG, Type.INT, DLQ_PAYLOAD_MAX_BYTES_DEFAULT,
                ConfigDef.Range.atLeast(DeadLetterRecordBuilder.MIN_MAX_BYTES), Importance.MEDIUM,
                DLQ_PAYLOAD_MAX_BYTES_DOC, ERRORS_GROUP, ++order, Width.SHORT, "Dead-letter max bytes");
        order = 0;
        def.define(TRANSACTIONAL_ID_PREFIX_CONFIG, Type.STRING, TRANSACTIONAL_ID_PREFIX_DEFAULT,
                Validators.OPTIONAL_ID_PREFIX, Importance.MEDIUM, TRANSACTIONAL_ID_PREFIX_DOC, TRANSACTIONS_GROUP,
                ++order, Width.MEDIUM, "Transactional id prefix");
        def.define(PROGRESS_TOPIC_NAME_CONFIG, Type.STRING, PROGRESS_TOPIC_NAME_DEFAULT,
                Validators.OPTIONAL_TOPIC_NAME, Importance.MEDIUM, PROGRESS_TOPIC_NAME_DOC, TRANSACTIONS_GROUP,
                ++order, Width.MEDIUM, "Progress topic");
        def.define(TRANSACTION_RETRIES_CONFIG, Type.INT, TRANSACTION_RETRIES_DEFAULT, ConfigDef.Range.between(0, 100),
                Importance.LOW, TRANSACTION_RETRIES_DOC, TRANSACTIONS_GROUP, ++order, Width.SHORT,
                "Transaction retries");
        def.define(COMMIT_INTERVAL_MS_CONFIG, Type.LONG, COMMIT_INTERVAL_MS_DEFAULT,
                ConfigDef.Range.between(0L, 3_600_000L), Importance.MEDIUM, COMMIT_INTERVAL_MS_DOC,
                TRANSACTIONS_GROUP, ++order, Width.SHORT, "Commit interval (ms)");
        def.define(COMMIT_MAX_RECORDS_CONFIG, Type.INT, COMMIT_MAX_RECORDS_DEFAULT,
                ConfigDef.Range.between(1, 10_000_000), Importance.LOW, COMMIT_MAX_RECORDS_DOC, TRANSACTIONS_GROUP,
                ++order, Width.SHORT, "Commit max records");
        def.define(PROGRESS_READ_TIMEOUT_MS_CONFIG, Type.LONG, PROGRESS_READ_TIMEOUT_MS_DEFAULT,
                ConfigDef.Range.atLeast(1), Importance.LOW, PROGRESS_READ_TIMEOUT_MS_DOC, TRANSACTIONS_GROUP,
                ++order, Width.SHORT, "Progress read timeout (ms)");
        order = 0;
        def.define(TARGET_KEY_CONVERTER_CONFIG, Type.CLASS, ByteArrayConverter.class,
                Validators.implementing(Converter.class), Importance.LOW,
                String.format(TARGET_CONVERTER_DOC, "key", TARGET_KEY_CONVERTER_CONFIG + "."), CONVERTERS_GROUP,
                ++order, Width.LONG, "Target key converter");
        def.define(TARGET_VALUE_CONVERTER_CONFIG, Type.CLASS, ByteArrayConverter.class,
                Validators.implementing(Converter.class), Importance.LOW,
                String.format(TARGET_CONVERTER_DOC, "value", TARGET_VALUE_CONVERTER_CONFIG + "."), CONVERTERS_GROUP,
                ++order, Width.LONG, "Target value converter");
        def.define(TARGET_HEADER_CONVERTER_CONFIG, Type.CLASS, BytesOrStringHeaderConverter.class,
                Validators.implementing(HeaderConverter.class), Importance.LOW,
                String.format(TARGET_CONVERTER_DOC, "headers", TARGET_HEADER_CONVERTER_CONFIG + ".")
                        + " The default writes headers that arrived as bytes unchanged and headers an SMT added as"
                        + " strings (UTF-8).",
                CONVERTERS_GROUP, ++order, Width.LONG, "Target header converter");
        defineTargetTopics(def);
        def.define(PROGRESS_TOPIC_REPLICATION_FACTOR_CONFIG, Type.SHORT, PROGRESS_TOPIC_REPLICATION_FACTOR_DEFAULT,
                Validators.REPLICATION_FACTOR, Importance.LOW, PROGRESS_TOPIC_REPLICATION_FACTOR_DOC,
                TRANSACTIONS_GROUP, 100, Width.SHORT, "Progress topic replication factor");
        defineFaultHandling(def);
        return def;
    }

    private static void defineTargetTopics(ConfigDef def) {
        int order = 0;
        def.define(TARGET_TOPIC_CREATION_ENABLE_CONFIG, Type.BOOLEAN, TARGET_TOPIC_CREATION_ENABLE_DEFAULT,
                Importance.MEDIUM, TARGET_TOPIC_CREATION_ENABLE_DOC, TARGET_TOPICS_GROUP, ++order, Width.SHORT,
                "Create missing target topics");
        def.define(TARGET_TOPIC_CREATION_PARTITIONS_CONFIG, Type.INT, TARGET_TOPIC_CREATION_PARTITIONS_DEFAULT,
                Validators.PARTITIONS, Importance.LOW, TARGET_TOPIC_CREATION_PARTITIONS_DOC, TARGET_TOPICS_GROUP,
                ++order, Width.SHORT, "Created topics' partitions");
        def.define(TARGET_TOPIC_CREATION_REPLICATION_FACTOR_CONFIG, Type.SHORT,
                TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DEFAULT, Validators.REPLICATION_FACTOR, Importance.LOW,
                TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DOC, TARGET_TOPICS_GROUP, ++order, Width.SHORT,
                "Created topics' replication factor");
        def.define(TARGET_PARTITION_MAPPING_CONFIG, Type.STRING, TARGET_PARTITION_MAPPING_DEFAULT,
                ConfigDef.CaseInsensitiveValidString.in("hash", "keep"), Importance.MEDIUM,
                TARGET_PARTITION_MAPPING_DOC, TARGET_TOPICS_GROUP, ++order, Width.SHORT, "Target partition mapping");
    }

    private static void defineFaultHandling(ConfigDef def) {
        int order = 0;
        def.define(TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG, Type.LONG, TRANSIENT_ERRORS_TIMEOUT_MS_DEFAULT,
                ConfigDef.Range.atLeast(0), Importance.LOW, TRANSIENT_ERRORS_TIMEOUT_MS_DOC, FAULTS_GROUP, ++order,
                Width.SHORT, "Transient errors timeout");
        def.define(DLQ_MAX_RATIO_CONFIG, Type.DOUBLE, DLQ_MAX_RATIO_DEFAULT, ConfigDef.Range.between(0.0, 1.0),
                Importance.MEDIUM, DLQ_MAX_RATIO_DOC, FAULTS_GROUP, ++order, Width.SHORT, "Dead-letter max ratio");
        def.define(DLQ_WINDOW_RECORDS_CONFIG, Type.INT, DLQ_WINDOW_RECORDS_DEFAULT, ConfigDef.Range.between(1,
                1_000_000), Importance.LOW, DLQ_WINDOW_RECORDS_DOC, FAULTS_GROUP, ++order, Width.SHORT,
                "Dead-letter window records");
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
        Map<String, String> topicConfigs = new HashMap<>();
        originalsWithPrefix(TARGET_TOPIC_CREATION_PREFIX).forEach((key, value) -> {
            if (!configDef().names().contains(TARGET_TOPIC_CREATION_PREFIX + key)) {
                topicConfigs.put(key, String.valueOf(value));
            }
        });
        int partitions = getInt(TARGET_TOPIC_CREATION_PARTITIONS_CONFIG);
        return new TargetTopicSettings(getBoolean(TARGET_TOPIC_CREATION_ENABLE_CONFIG),
                partitions == -1 ? Optional.empty() : Optional.of(partitions),
                replicationFactor(getShort(TARGET_TOPIC_CREATION_REPLICATION_FACTOR_CONFIG)), Map.copyOf(topicConfigs),
                PartitionMapping.valueOf(getString(TARGET_PARTITION_MAPPING_CONFIG).toUpperCase(Locale.ROOT)));
    }

    /**
     * Admin configs for the source cluster, to read a source topic's partition count: the consumer.override.*
     * client settings when the connector names its source cluster with consumer.override.bootstrap.servers, else
     * the target cluster's (the source is then assumed to be the same cluster).
     */
    public Map<String, Object> sourceAdminConfigs() {
        Map<String, Object> overrides = new HashMap<>();
        originalsWithPrefix(ConfigRules.CONSUMER_OVERRIDE_PREFIX).forEach((name, value) -> {
            if (AdminClientConfig.configNames().contains(name)) {
                overrides.put(name, value);
            }
        });
        return overrides.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) ? overrides : adminConfigs();
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

    private static Optional<Short> replicationFactor(short value) {
        return value == -1 ? Optional.empty() : Optional.of(value);
    }

    public int transactionRetries() {
        return getInt(TRANSACTION_RETRIES_CONFIG);
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
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, targetBootstrapServers());
        configs.putAll(originalsWithPrefix(TARGET_PRODUCER_PREFIX));
        return configs;
    }

    /** Admin (and progress-reading consumer) configs for the target cluster: target.admin.* over the servers. */
    public Map<String, Object> adminConfigs() {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, targetBootstrapServers());
        configs.putAll(originalsWithPrefix(TARGET_ADMIN_PREFIX));
        return configs;
    }

    public Converter keyConverter() {
        return converter(TARGET_KEY_CONVERTER_CONFIG, true);
    }

    public Converter valueConverter() {
        return converter(TARGET_VALUE_CONVERTER_CONFIG, false);
    }

    public HeaderConverter headerConverter() {
        HeaderConverter converter = (HeaderConverter) Utils.newInstance(getClass(TARGET_HEADER_CONVERTER_CONFIG));
        converter.configure(originalsWithPrefix(TARGET_HEADER_CONVERTER_CONFIG + "."));
        return converter;
    }

    private Converter converter(String key, boolean isKey) {
        Converter converter = (Converter) Utils.newInstance(getClass(key));
        converter.configure(originalsWithPrefix(key + "."), isKey);
        return converter;
    }

    private static Optional<String> nonEmpty(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
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
