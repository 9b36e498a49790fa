package dev.quarantine.connect.sink.write;

import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.txn.DeadLetterBreaker;
import dev.quarantine.txn.SendErrors;

/** What writing a slot's records can end in besides success; each message names the record or the setting. */
public final class WriterErrors {

    private WriterErrors() {
    }

    private static String describe(Throwable cause) {
        Throwable e = SendErrors.unwrap(cause);
        return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static boolean isAuthorization(Throwable cause) {
        for (Throwable e = cause; e != null; e = e.getCause()) {
            if (e instanceof AuthorizationException) {
                return true;
            }
        }
        return false;
    }

    /** A poison record with send.errors.tolerance=none. */
    static final class PoisonInStrictMode extends ConnectException {
        PoisonInStrictMode(SinkRecord record, String targetTopic, Throwable cause) {
            super("Record " + Coordinates.of(record) + " cannot be written to " + targetTopic + ": " + describe(cause)
                    + ". With " + TransactionalSinkConfig.SEND_ERRORS_TOLERANCE_CONFIG + "=none the task stops;"
                    + " set it to all (with " + TransactionalSinkConfig.DLQ_TOPIC_NAME_CONFIG
                    + ") to dead-letter such records", cause);
        }
    }

    /** A dead letter that cannot be written, not even truncated: never dead-lettered again, the task stops. */
    static final class DeadLetterFailed extends ConnectException {
        DeadLetterFailed(SinkRecord record, String dlqTopic, Throwable cause) {
            super("The dead letter of " + Coordinates.of(record) + " cannot be written to dead-letter topic "
                    + dlqTopic + ": " + describe(cause) + ". Check that the topic exists, that the target producer's"
                    + " principal may write to it, and its max.message.bytes (" + TransactionalSinkConfig
                    .DLQ_TOPIC_NAME_CONFIG + ")", cause);
        }
    }

    /**
     * A failure that is neither the record's fault nor transient (not authorized, an unsupported version, a
     * producer misconfiguration): retrying would fail again, dead-lettering would drain good records.
     */
    static final class FatalWrite extends ConnectException {
        FatalWrite(SinkRecord record, String targetTopic, Throwable cause) {
            super("Record " + Coordinates.of(record) + " cannot be written to " + targetTopic + ": "
                    + describe(cause) + ". The task stops: retrying or dead-lettering does not help. "
                    + (isAuthorization(cause)
                    ? "Check the ACLs of the target producer's principal (WRITE and DESCRIBE on topic " + targetTopic
                    + ", WRITE on the transactional ids of " + TransactionalSinkConfig.TRANSACTIONAL_ID_PREFIX_CONFIG
                    + ") and its security settings (target.producer.*)"
                    : "Check the target cluster's version and the target.producer.* settings"), cause);
        }
    }

    /** A record an SMT left without a topic: the target topic cannot be known. */
    static final class NoTopic extends ConnectException {
        NoTopic(SinkRecord record) {
            super("Record " + Coordinates.of(record) + " has no topic after the connector's transforms (an SMT set"
                    + " it to null), so " + TransactionalSinkConfig.TARGET_TOPIC_FORMAT_CONFIG + " cannot name its"
                    + " target; check the transforms of the connector");
        }
    }

    /**
     * Too many of the task's latest records were dead-lettered ({@code dlq.max.ratio}): that is a broken target, not
     * poison, and the task stops instead of draining good records into the dead-letter topic.
     */
    static final class BreakerTripped extends ConnectException {
        BreakerTripped(DeadLetterBreaker.Trip trip) {
            super(trip.deadLetters() + " of the last " + trip.window() + " records of this task were dead-lettered,"
                    + " more than " + TransactionalSinkConfig.DLQ_MAX_RATIO_CONFIG + "=" + trip.maxRatio() + "; most"
                    + " of them (" + trip.mostCommon().getValue() + ") failed with " + trip.mostCommon().getKey()
                    + ". That looks like a broken target (a deleted or misconfigured topic), not poison records, so"
                    + " the task stops instead of draining good records into the dead-letter topic. Fix the target"
                    + " and restart the task, or raise " + TransactionalSinkConfig.DLQ_MAX_RATIO_CONFIG
                    + " (1.0 turns this check off)");
        }
    }
}
