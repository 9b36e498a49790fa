package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_PARTITION_MAPPING_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_PARTITION_MAPPING_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_CREATION_ENABLE_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_CREATION_ENABLE_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_CREATION_PARTITIONS_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_CREATION_PARTITIONS_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_CREATION_PREFIX;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_CREATION_REPLICATION_FACTOR_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DEFAULT;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

import dev.quarantine.txn.ConfigGroup;

/**
 * The settings of the group "Target topics" of {@link TransactionalSinkConfig}: how missing target topics are
 * created and records mapped onto their partitions.
 */
final class TargetTopicsGroup {

    static final String NAME = "Target topics";

    static final String TARGET_TOPIC_CREATION_ENABLE_DOC = "Whether the connector creates a target topic that"
            + " does not exist, before anything is sent to it, as MirrorMaker 2 does: with as many partitions as its"
            + " source topic, and the replication factor and topic configs below. Any other setting with the prefix "
            + TARGET_TOPIC_CREATION_PREFIX + " is a topic config of the topics it creates (for example "
            + TARGET_TOPIC_CREATION_PREFIX + "cleanup.policy=compact, as Connect's topic.creation.default.*). false:"
            + " a missing target topic is left alone, so its records are poison records, or, on brokers with"
            + " auto.create.topics.enable=true, the broker creates it at the first send with its num.partitions.";

    static final String TARGET_TOPIC_CREATION_PARTITIONS_DOC = "Partitions of a target topic the connector"
            + " creates. -1: as many as its source topic, read from the source cluster (the cluster named by"
            + " consumer.override.bootstrap.servers and consumer.override.* client settings, else the target"
            + " cluster, which the source cluster is then assumed to be); where the source topic cannot be found"
            + " there, the target cluster's num.partitions.";

    static final String TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DOC = "Replication factor of a target"
            + " topic the connector creates; -1 means the target cluster's default.replication.factor.";

    static final String TARGET_PARTITION_MAPPING_DOC = "The target partition of a record whose partition the"
            + " target topic does not have (the target topic has fewer partitions than the source). A record whose"
            + " partition exists in the target topic always keeps it. hash: Kafka's default partitioner on the"
            + " key bytes (murmur2 modulo the target's partition count; a record without a key goes to its"
            + " partition modulo that count), so no good record is dead-lettered and a key always lands in the same"
            + " partition. keep: the record keeps its partition and is a poison record (dead-lettered); validation"
            + " refuses keep for a listed topic whose target topic has fewer partitions than its source.";

    private TargetTopicsGroup() {
    }

    static void define(ConfigDef def) {
        new ConfigGroup(def, NAME)
                .define(TARGET_TOPIC_CREATION_ENABLE_CONFIG, Type.BOOLEAN, TARGET_TOPIC_CREATION_ENABLE_DEFAULT, null,
                        Importance.MEDIUM, TARGET_TOPIC_CREATION_ENABLE_DOC, Width.SHORT,
                        "Create missing target topics")
                .define(TARGET_TOPIC_CREATION_PARTITIONS_CONFIG, Type.INT, TARGET_TOPIC_CREATION_PARTITIONS_DEFAULT,
                        Validators.PARTITIONS, Importance.LOW, TARGET_TOPIC_CREATION_PARTITIONS_DOC, Width.SHORT,
                        "Created topics' partitions")
                .define(TARGET_TOPIC_CREATION_REPLICATION_FACTOR_CONFIG, Type.SHORT,
                        TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DEFAULT, Validators.REPLICATION_FACTOR, Importance.LOW,
                        TARGET_TOPIC_CREATION_REPLICATION_FACTOR_DOC, Width.SHORT, "Created topics' replication factor")
                .define(TARGET_PARTITION_MAPPING_CONFIG, Type.STRING, TARGET_PARTITION_MAPPING_DEFAULT,
                        ConfigDef.CaseInsensitiveValidString.in("hash", "keep"), Importance.MEDIUM,
                        TARGET_PARTITION_MAPPING_DOC, Width.SHORT, "Target partition mapping");
    }

    /** The settings of this group as {@code config} holds them; other target.topic.creation.* are topic configs. */
    static TargetTopicSettings settings(TransactionalSinkConfig config) {
        Map<String, String> topicConfigs = new HashMap<>();
        config.originalsWithPrefix(TARGET_TOPIC_CREATION_PREFIX).forEach((key, value) -> {
            if (!TransactionalSinkConfig.configDef().names().contains(TARGET_TOPIC_CREATION_PREFIX + key)) {
                topicConfigs.put(key, String.valueOf(value));
            }
        });
        int partitions = config.getInt(TARGET_TOPIC_CREATION_PARTITIONS_CONFIG);
        return new TargetTopicSettings(config.getBoolean(TARGET_TOPIC_CREATION_ENABLE_CONFIG),
                partitions == -1 ? Optional.empty() : Optional.of(partitions),
                TransactionalSinkConfig.replicationFactor(config.getShort(
                        TARGET_TOPIC_CREATION_REPLICATION_FACTOR_CONFIG)), Map.copyOf(topicConfigs),
                PartitionMapping.valueOf(config.getString(TARGET_PARTITION_MAPPING_CONFIG).toUpperCase(Locale.ROOT)));
    }
}
