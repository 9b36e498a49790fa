package dev.quarantine.connect.sink.write;

import java.util.Optional;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.txn.DeadLetterBreaker;
import dev.quarantine.txn.SendErrors;

/** What writing a partition's batch can end in besides success; each message names the record or the setting. */
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

    /**
     * This partition's producer lost its epoch: another producer of its transactional id was initialized, or the
     * coordinator aborted a transaction that outlived {@code transaction.timeout.ms}. The task re-establishes the
     * partition unless Connect no longer assigns it.
     */
    public static final class Fenced extends ConnectException {
        final transient TopicPartition partition;
        private final transient CarriedRedo redo;

        Fenced(TopicPartition partition, Throwable cause) {
            this(partition, cause, Optional.empty());
        }

        /** With {@code redo}: the failing transaction held commits of the writer open, and its abort failed. */
        Fenced(TopicPartition partition, Throwable cause, Optional<CarriedRedo> redo) {
            super("The producer of " + partition + " was fenced (" + describe(cause) + ")" + carried(redo), cause);
            this.partition = partition;
            this.redo = redo.orElse(null);
        }

        /** The redo the partition's next producer must begin (see {@link CarriedRedo}). */
        public Optional<CarriedRedo> redo() {
            return Optional.ofNullable(redo);
        }
    }

    /** The producer's transaction state is unknown (an abort failed, the producer was misused): recreate it. */
    public static final class BrokenProducer extends ConnectException {
        final transient TopicPartition partition;
        private final transient CarriedRedo redo;

        BrokenProducer(TopicPartition partition, Throwable cause) {
            this(partition, cause, Optional.empty());
        }

        /** With {@code redo}: the failing transaction held commits of the writer open, and its abort failed. */
        BrokenProducer(TopicPartition partition, Throwable cause, Optional<CarriedRedo> redo) {
            super("The producer of " + partition + " must be recreated (" + describe(cause) + ")" + carried(redo),
                    cause);
            this.partition = partition;
            this.redo = redo.orElse(null);
        }

        /** The redo the partition's next producer must begin (see {@link CarriedRedo}). */
        public Optional<CarriedRedo> redo() {
            return Optional.ofNullable(redo);
        }
    }

    private static String carried(Optional<CarriedRedo> redo) {
        return redo.map(r -> "; the failing transaction held commits of its own left open by a restarting broker,"
                + " aborted with it: " + r.describe() + ", to be written again by the partition's next producer")
                .orElse("");
    }

    /**
     * Commits of the partition's producer were aborted with a failing transaction (left open by a restarting broker,
     * see {@link RunningRedo}) and cannot be written again: the intent to redo them could not be committed, or the
     * producer broke and the task fails anyway. Names the records and how to copy them again.
     */
    public static final class RedoLost extends ConnectException {
        public RedoLost(TopicPartition partition, CarriedRedo redo, Throwable cause) {
            super("The records of " + partition + ", " + redo.describe() + ", were aborted with a failing"
                    + " transaction (a commit of them was left open there by a restarting broker) and are not written"
                    + " again (" + describe(cause) + "). Copy them again: stop the connector and alter its offset for "
                    + partition + " to " + redo.from() + " (PUT /connectors/<name>/stop, PATCH"
                    + " /connectors/<name>/offsets)", cause);
        }
    }

    /**
     * Commits of this partition's producer were aborted with a failing transaction (left open by a restarting broker,
     * see {@link RunningRedo}), and the intent to write them again is committed: the partition resumes at
     * {@code resumeAt}, its waiting records dropped and the worker's consumer sought there.
     */
    public static final class RedoBegun extends ConnectException {
        final transient TopicPartition partition;
        public final long resumeAt;

        RedoBegun(TopicPartition partition, long resumeAt, Throwable cause) {
            super("Commits of " + partition + " left open by a restarting broker were aborted with a failing"
                    + " transaction (" + describe(cause) + "); they are written again from offset " + resumeAt, cause);
            this.partition = partition;
            this.resumeAt = resumeAt;
        }
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
