package dev.quarantine.connect.sink.write;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;
import dev.quarantine.connect.sink.write.TaskTransaction.Write;

/**
 * How a failure ends a slot's transaction (the outcomes of {@link TaskTransaction}, design 2.6): what a failed send, a
 * progress record not sent or a commit that did not go through answers, the transaction aborted where it is still
 * open (not after the epoch moved on), a failed abort attached to the outcome's cause.
 */
final class TransactionFailures {

    private final SlotProducer producer;
    private final String id;
    private final String progressTopic;

    /** Failures of the transactions of {@code producer}, slot {@code id}, progress records to {@code progress}. */
    TransactionFailures(SlotProducer producer, String id, ProgressKeys progress) {
        this.progressTopic = progress.topic();
        this.producer = producer;
        this.id = id;
    }

    /** A send of {@code write} failed with {@code cause}: what the transaction's outcome is (design 2.6). */
    Outcome sendFailed(TopicPartition source, Write write, Throwable cause) {
        FailureAction action = FailureAction.of(cause);
        if (action == FailureAction.FENCED) {
            return new Outcome.Fenced(cause);
        }
        if (action == FailureAction.RETRY) {
            return abortThen(new Outcome.Transient(cause));
        }
        if (write.deadLetter()) {
            return abortThen(new Outcome.Fatal(new WriterErrors.DeadLetterFailed(write.record(), write.out().topic(),
                    cause)));
        }
        if (action == FailureAction.POISON) {
            return abortThen(new Outcome.Rejected(source, write.offset(), cause));
        }
        return abortThen(new Outcome.Fatal(new WriterErrors.FatalWrite(write.record(), write.out().topic(), cause)));
    }

    /** The send of {@code source}'s progress record failed at once: fenced, transient, or for good. */
    Outcome progressNotSent(TopicPartition source, Throwable cause) {
        FailureAction action = FailureAction.of(cause);
        if (action == FailureAction.FENCED) {
            return new Outcome.Fenced(cause);
        }
        return abortThen(action == FailureAction.RETRY ? new Outcome.Transient(cause)
                : new Outcome.Fatal(progressFailed(source, cause)));
    }

    /**
     * The commit of a transaction of {@code partitions} source partitions ended in {@code end}, not Done; the sends of
     * their progress records were {@code progressSends}.
     */
    Outcome commitNotDone(End end, int partitions, Map<TopicPartition, Future<RecordMetadata>> progressSends) {
        if (end instanceof End.Fenced || end instanceof End.MaybeDone) {
            Throwable cause = SlotAnswers.cause(end);
            return end instanceof End.Fenced ? new Outcome.Fenced(cause) : new Outcome.Unknown(cause);
        }
        Optional<Map.Entry<TopicPartition, Throwable>> refused = refusedProgress(progressSends);
        if (refused.isPresent()) {
            return abortThen(new Outcome.Fatal(progressFailed(refused.get().getKey(), refused.get().getValue())));
        }
        return abortThen(end instanceof End.Transient ? new Outcome.Transient(SlotAnswers.cause(end))
                : new Outcome.Fatal(commitFailed(partitions, SlotAnswers.cause(end))));
    }

    /**
     * A progress record the broker refused for good (records and dead letters were all acknowledged before, so the
     * error is the progress record's own): it cannot be dead-lettered, and writing it again fails again.
     */
    private static Optional<Map.Entry<TopicPartition, Throwable>> refusedProgress(
            Map<TopicPartition, Future<RecordMetadata>> sends) {
        for (Map.Entry<TopicPartition, Future<RecordMetadata>> send : sends.entrySet()) {
            if (send.getValue().isDone()) {
                try {
                    send.getValue().get();
                } catch (ExecutionException e) {
                    if (FailureAction.of(e.getCause()) != FailureAction.RETRY) {
                        return Optional.of(Map.entry(send.getKey(), e.getCause()));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** Aborts, then answers {@code outcome} (not Committed); a failed abort is attached to its cause. */
    Outcome abortThen(Outcome outcome) {
        End end = producer.abort();
        if (end instanceof End.Done) {
            return outcome;
        }
        Throwable cause = causeOf(outcome);
        Throwable abortFailure = SlotAnswers.cause(end);
        cause.addSuppressed(abortFailure);
        if (outcome instanceof Outcome.Fatal) {
            return outcome;
        }
        return end instanceof End.Fenced ? new Outcome.Fenced(cause) : new Outcome.Unknown(cause);
    }

    /** The cause of an outcome that ends a transaction still open: not Committed, and not Fenced or Unknown. */
    private static Throwable causeOf(Outcome outcome) {
        String refusal = "only a transaction still open is aborted: " + outcome;
        if (outcome instanceof Outcome.Fenced || outcome instanceof Outcome.Unknown) {
            throw new IllegalStateException(refusal);
        }
        return SlotAnswers.causeOf(outcome, refusal);
    }

    private ConnectException progressFailed(TopicPartition source, Throwable cause) {
        return new ConnectException("The progress of " + source + " cannot be sent to the progress topic "
                + progressTopic + " (" + cause + "), so the transaction of " + id + " cannot commit."
                + " Check the ACLs of the target producer's principal (WRITE and DESCRIBE on topic " + progressTopic
                + ") and the topic's settings (max.message.bytes, cleanup.policy=compact)", cause);
    }

    private ConnectException commitFailed(int partitions, Throwable cause) {
        return new ConnectException("The transaction of " + id + " (" + partitions + " source partitions)"
                + " cannot commit: " + cause + ". The task stops: retrying does not help. Check the ACLs of the target"
                + " producer's principal (WRITE on the transactional ids of "
                + TransactionalSinkConfig.TRANSACTIONAL_ID_PREFIX_CONFIG + ", WRITE and DESCRIBE on the target, dead"
                + "-letter and progress topics) and the target.producer.* settings", cause);
    }
}
