package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.ownership.OwnershipLog.LogRead;
import dev.quarantine.connect.sink.progress.ProgressTopic;
import dev.quarantine.txn.SendErrors;

/**
 * When the opening of a slot's partitions fails the task (design 2.4, 2.5): a stage that fails for now is tried again
 * at the next put until {@code transient.errors.timeout.ms} passes without a stage succeeding; fences no claim
 * explains fail it once they kept the slot from committing that long ({@link UnexplainedFences}). Each failure names
 * the partitions, the id and the setting.
 */
final class StageFailures {

    private final String ownId;
    private final Duration timeout;
    private final FailureClock failures;
    private final UnexplainedFences unexplained;

    StageFailures(String ownId, Duration transientTimeout, Clock clock) {
        this.ownId = ownId;
        this.timeout = transientTimeout;
        this.failures = new FailureClock(clock);
        this.unexplained = new UnexplainedFences(transientTimeout, clock);
    }

    UnexplainedFences unexplained() {
        return unexplained;
    }

    void succeeded() {
        failures.succeeded();
    }

    /** A stage failed for now with {@code cause}: the task's failure once that has lasted past the timeout. */
    Optional<ConnectException> failed(Throwable cause, Set<TopicPartition> waiting) {
        if (failures.failed().compareTo(timeout) <= 0) {
            return Optional.empty();
        }
        return Optional.of(new ConnectException("Opening " + waiting + " as " + ownId + " failed for longer than"
                + " transient.errors.timeout.ms (" + timeout.toMillis() + " ms): " + cause, cause));
    }

    /** The task's failure when unexplained fences kept the slot from committing past the timeout. */
    Optional<ConnectException> unexplainedTooLong() {
        return unexplained.overLimit().map(running -> new ConnectException(ownId + " was fenced by no claim in the"
                + " progress topic and has not committed for " + running.toMillis() + " ms, longer than"
                + " transient.errors.timeout.ms (" + timeout.toMillis() + " ms): another instance of this task may be"
                + " running (a zombie worker), or another connector uses the same transactional.id.prefix"));
    }

    /**
     * What a read that did not answer failed with, to be tried again: a read held back, or a transient failure
     * ({@link SendErrors#isTransient}).
     *
     * @throws ConnectException at once for any other failure: the progress topic {@code topic} gone (deleted while the
     *                          task ran: {@link ProgressTopic#missing}), a record of ours that does not read (the same
     *                          record is there at the next read), an ACL on the progress topic (fail closed, fail now)
     */
    static Throwable causeOf(LogRead<?> read, String what, String topic) {
        if (read instanceof LogRead.Failed<?> failed) {
            if (SendErrors.unwrap(failed.cause()) instanceof UnknownTopicOrPartitionException) {
                // the read's own answer, not a timeout that met it on the way (a broker not yet knowing a new topic)
                throw ProgressTopic.missing(topic, "the partitions this task holds");
            }
            if (!SendErrors.isTransient(failed.cause())) {
                throw new ConnectException("The " + what + " of the progress topic cannot be read: "
                        + failed.cause().getMessage(), failed.cause());
            }
            return failed.cause();
        }
        return new TimeoutException("the read of the " + what + " was held back at the last stable offset "
                + ((LogRead.HeldBack<?>) read).lastStableOffset() + " by a transaction open there");
    }
}
