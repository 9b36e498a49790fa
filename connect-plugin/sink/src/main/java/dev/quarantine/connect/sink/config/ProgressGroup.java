package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.COMMIT_INTERVAL_MS_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.COMMIT_INTERVAL_MS_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.COMMIT_MAX_RECORDS_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.COMMIT_MAX_RECORDS_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PROGRESS_TOPIC_NAME_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PROGRESS_TOPIC_NAME_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PROGRESS_TOPIC_REPLICATION_FACTOR_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PROGRESS_TOPIC_REPLICATION_FACTOR_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.PROGRESS_TOPIC_SUFFIX;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TRANSACTIONAL_ID_PREFIX_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TRANSACTIONAL_ID_PREFIX_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TRANSACTION_RETRIES_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TRANSACTION_RETRIES_DEFAULT;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

import dev.quarantine.txn.ConfigGroup;

/**
 * The settings of the group "Transactions and progress" of {@link TransactionalSinkConfig}: the transactions and
 * the progress topic: ids, topic, commit triggers and the progress read.
 */
final class ProgressGroup {

    static final String NAME = "Transactions and progress";

    static final String TRANSACTIONAL_ID_PREFIX_DOC = "Prefix of the transactional ids and progress keys"
            + " on the target cluster; empty means the connector's name. Each task writes with the transactional id"
            + " <prefix>:task#<task number>.0; each source partition's progress key is <prefix>:<topic>-<partition>,"
            + " and a claim on the progress topic's partition 1 names the task that writes it: a task given a"
            + " partition fences the ids that held it before it reads its progress. Keep it unique per connector and stable across"
            + " restarts: a new prefix starts without progress.";

    static final String PROGRESS_TOPIC_NAME_DOC = "The connector's own topic on the target cluster that holds"
            + " its progress: each transaction writes one record per source partition to its partition 0, keyed by"
            + " <prefix>:<topic>-<partition>, holding the next source offset (format=1 key=value lines), in the"
            + " same transaction as the output. It must be compacted, must have two partitions (partition 1 is"
            + " for the claims of source partitions by tasks; validation refuses a topic with one and names the"
            + " kafka-topics.sh command that adds one) and must not be the dead-letter topic."
            + " Empty means <connector name>"
            + PROGRESS_TOPIC_SUFFIX + " (characters a topic name cannot hold become _). The connector creates it"
            + " when it starts, if missing: two partitions, compacted, 1 MiB segments, replication factor"
            + " progress.topic.replication.factor. Deleting it deletes the progress: a task that finds it missing,"
            + " created again or not compacted fails, naming it.";

    static final String PROGRESS_TOPIC_REPLICATION_FACTOR_DOC = "Replication factor of the progress topic"
            + " when the connector creates it; -1 means the target cluster's default.replication.factor.";

    static final String TRANSACTION_RETRIES_DOC = "Not read by this version: a transaction the target cluster"
            + " rejects records of is isolated record by record (the rejected ones dead-lettered), starting further"
            + " transactions only while the put is within consumer.override.max.poll.interval.ms less four times"
            + " target.producer.max.block.ms and 10 s (the rest is written at the next commit trigger), and one that"
            + " fails transiently is handed back to the worker to be delivered again, bounded by"
            + " transient.errors.timeout.ms. Kept so that existing configs stay valid.";

    static final String COMMIT_INTERVAL_MS_DOC = "How long a task collects records before it writes them:"
            + " the records of several polls go into one transaction per task, written when the oldest"
            + " record has waited this long, or earlier when commit.max.records records, or records of an"
            + " estimated producers.memory.bytes, are waiting. A record becomes visible to read_committed"
            + " readers of the target about this long after the worker polled it, plus the time to commit. 0: one"
            + " transaction for each batch the worker delivers (each put). Must be below"
            + " target.producer.transaction.timeout.ms. Waiting records are not committed: when the partition is"
            + " revoked or the task stops, they are read again from the committed progress.";

    static final String COMMIT_MAX_RECORDS_DOC = "How many records a task collects (over all its partitions)"
            + " before it writes them without waiting for commit.interval.ms. The records waiting are also bounded"
            + " by their estimated size: the task writes once the bytes of their keys, values and header values"
            + " (the lengths of byte arrays, the characters of strings; other types count nothing) reach"
            + " producers.memory.bytes.";

    static final String PROGRESS_READ_TIMEOUT_MS_DOC = "How long a task waits, when it is given partitions,"
            + " to read their committed progress from the target cluster (a transaction still being completed makes"
            + " the read wait, as does a transaction of another partition still open on the progress topic). On"
            + " timeout it never guesses a starting offset: the partition is opened again when the worker delivers"
            + " its records, as any transient failure, until transient.errors.timeout.ms. With"
            + " target.producer.max.block.ms it must stay below consumer.override.max.poll.interval.ms; so must"
            + " target.admin.default.api.timeout.ms (the bound of an admin call, such as the fence of the"
            + " transactional ids that held a partition given to a task) with target.producer.max.block.ms (checked"
            + " when a connector is created or its config changed, not when an existing one starts)."
            + " Validation names each setting when they do not agree.";

    private ProgressGroup() {
    }

    static void define(ConfigDef def) {
        new ConfigGroup(def, NAME)
                .define(TRANSACTIONAL_ID_PREFIX_CONFIG, Type.STRING, TRANSACTIONAL_ID_PREFIX_DEFAULT,
                        Validators.OPTIONAL_ID_PREFIX, Importance.MEDIUM, TRANSACTIONAL_ID_PREFIX_DOC, Width.MEDIUM,
                        "Transactional id prefix")
                .define(PROGRESS_TOPIC_NAME_CONFIG, Type.STRING, PROGRESS_TOPIC_NAME_DEFAULT,
                        Validators.OPTIONAL_TOPIC_NAME, Importance.MEDIUM, PROGRESS_TOPIC_NAME_DOC, Width.MEDIUM,
                        "Progress topic")
                .define(TRANSACTION_RETRIES_CONFIG, Type.INT, TRANSACTION_RETRIES_DEFAULT,
                        ConfigDef.Range.between(0, 100), Importance.LOW, TRANSACTION_RETRIES_DOC, Width.SHORT,
                        "Transaction retries")
                .define(COMMIT_INTERVAL_MS_CONFIG, Type.LONG, COMMIT_INTERVAL_MS_DEFAULT,
                        ConfigDef.Range.between(0L, 3_600_000L), Importance.MEDIUM, COMMIT_INTERVAL_MS_DOC, Width.SHORT,
                        "Commit interval (ms)")
                .count(COMMIT_MAX_RECORDS_CONFIG, COMMIT_MAX_RECORDS_DEFAULT, 10_000_000, COMMIT_MAX_RECORDS_DOC,
                        "Commit max records")
                .define(PROGRESS_READ_TIMEOUT_MS_CONFIG, Type.LONG, PROGRESS_READ_TIMEOUT_MS_DEFAULT,
                        ConfigDef.Range.atLeast(1), Importance.LOW, PROGRESS_READ_TIMEOUT_MS_DOC, Width.SHORT,
                        "Progress read timeout (ms)");
        // numbered 100 since it was first defined apart from the group's other settings; the number stays
        def.define(PROGRESS_TOPIC_REPLICATION_FACTOR_CONFIG, Type.SHORT, PROGRESS_TOPIC_REPLICATION_FACTOR_DEFAULT,
                Validators.REPLICATION_FACTOR, Importance.LOW, PROGRESS_TOPIC_REPLICATION_FACTOR_DOC,
                NAME, 100, Width.SHORT, "Progress topic replication factor");
    }
}
