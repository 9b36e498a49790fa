package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_MAX_RATIO_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_MAX_RATIO_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_WINDOW_RECORDS_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.DLQ_WINDOW_RECORDS_DEFAULT;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG;
import static dev.quarantine.connect.sink.config.TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_DEFAULT;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

import dev.quarantine.txn.ConfigGroup;

/**
 * The settings of the group "Fault handling" of {@link TransactionalSinkConfig}: how long transient errors are
 * borne, and the dead-letter breaker.
 */
final class FaultsGroup {

    static final String NAME = "Fault handling";

    static final String TRANSIENT_ERRORS_TIMEOUT_MS_DOC = "How long writing may keep failing with transient"
            + " errors (timeouts, an unavailable leader, a converter's schema registry outage) before the task"
            + " fails. Until then each failed batch is handed back to the worker and delivered again a second later;"
            + " such records are never dead-lettered. Partitions that fail to open transiently are retried within"
            + " it too; it must be above target.producer.transaction.timeout.ms.";

    static final String DLQ_MAX_RATIO_DOC = "The breaker: when more than this share of the task's last "
            + "dlq.window.records records were dead-lettered, the task fails with a message saying what most of them"
            + " failed with, instead of draining the stream into the dead-letter topic (a deleted or misconfigured"
            + " target topic makes every record look like poison). 1.0 turns the breaker off.";

    static final String DLQ_WINDOW_RECORDS_DOC = "How many of a task's most recent records the breaker of "
            + "dlq.max.ratio looks at. Records not yet seen count as written, so a few poison records at the start do"
            + " not trip it.";

    private FaultsGroup() {
    }

    static void define(ConfigDef def) {
        new ConfigGroup(def, NAME)
                .define(TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG, Type.LONG, TRANSIENT_ERRORS_TIMEOUT_MS_DEFAULT,
                        ConfigDef.Range.atLeast(0), Importance.LOW, TRANSIENT_ERRORS_TIMEOUT_MS_DOC, Width.SHORT,
                        "Transient errors timeout")
                .define(DLQ_MAX_RATIO_CONFIG, Type.DOUBLE, DLQ_MAX_RATIO_DEFAULT, ConfigDef.Range.between(0.0, 1.0),
                        Importance.MEDIUM, DLQ_MAX_RATIO_DOC, Width.SHORT, "Dead-letter max ratio")
                .count(DLQ_WINDOW_RECORDS_CONFIG, DLQ_WINDOW_RECORDS_DEFAULT, 1_000_000, DLQ_WINDOW_RECORDS_DOC,
                        "Dead-letter window records");
    }
}
