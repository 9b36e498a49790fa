package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PRODUCERS_MEMORY_BYTES_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PRODUCERS_MEMORY_BYTES_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_BOOTSTRAP_SERVERS_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_FORMAT_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TARGET_TOPIC_FORMAT_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TOPIC_PLACEHOLDER;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

import dev.quarantine.txn.ConfigGroup;

/**
 * The settings of the group "Target cluster" of {@link TransactionalSinkConfig}: where records go: the target
 * cluster, the topic format and the memory of the target producers.
 */
final class TargetClusterGroup {

    static final String NAME = "Target cluster";

    static final String TARGET_BOOTSTRAP_SERVERS_DOC = "host:port pairs of the cluster to write to. Records,"
            + " dead letters and the connector's progress all go to this cluster, in one transaction per task and"
            + " commit (see commit.interval.ms). Connection and security settings for it are given with the target.producer."
            + " and target.admin. prefixes (for example target.producer.security.protocol). The source side needs"
            + " one setting outside this list: consumer.override.isolation.level=read_committed, without which the"
            + " worker's consumer would hand the connector records of aborted source transactions; validation and"
            + " start refuse a connector without it.";

    static final String TARGET_TOPIC_FORMAT_DOC = "The target topic of a record: this text with "
            + TOPIC_PLACEHOLDER + " replaced by the record's topic (after transforms). The record keeps its"
            + " partition where the target topic has it (otherwise see target.partition.mapping); a missing target"
            + " topic is created first (see target.topic.creation.enable). A format that writes a topic onto itself"
            + " is refused.";

    static final String PRODUCERS_MEMORY_BYTES_DOC = "The memory of a task's target producer (one per task) for"
            + " its record batches: batch.size = this divided by the number of source partitions the task writes,"
            + " between 16384 and 262144, and buffer.memory = the same share, at most"
            + " 33554432 and at least batch.size and max.request.size (so the same records are poison as with"
            + " Kafka's defaults). With the default, a task with up to 256 partitions uses 256 KiB batches, one"
            + " with 1,000 partitions 64 KiB batches. target.producer.batch.size and target.producer.buffer.memory,"
            + " when set, win. It also bounds the records a task collects for its next transactions (see"
            + " commit.max.records).";

    private TargetClusterGroup() {
    }

    static void define(ConfigDef def) {
        new ConfigGroup(def, NAME)
                .define(TARGET_BOOTSTRAP_SERVERS_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE,
                        new ConfigDef.NonEmptyString(), Importance.HIGH, TARGET_BOOTSTRAP_SERVERS_DOC, Width.LONG,
                        "Target bootstrap servers")
                .define(TARGET_TOPIC_FORMAT_CONFIG, Type.STRING, TARGET_TOPIC_FORMAT_DEFAULT, Validators.TOPIC_FORMAT,
                        Importance.HIGH, TARGET_TOPIC_FORMAT_DOC, Width.MEDIUM, "Target topic format")
                .define(PRODUCERS_MEMORY_BYTES_CONFIG, Type.LONG, PRODUCERS_MEMORY_BYTES_DEFAULT,
                        ConfigDef.Range.between(1024L * 1024, 64L * 1024 * 1024 * 1024), Importance.LOW,
                        PRODUCERS_MEMORY_BYTES_DOC, Width.SHORT, "Producers' memory (bytes)");
    }
}
