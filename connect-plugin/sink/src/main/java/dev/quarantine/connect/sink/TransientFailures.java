package dev.quarantine.connect.sink;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.ownership.FailureClock;
import dev.quarantine.connect.sink.progress.SourceTopics;

/**
 * Bounds the retries of transient failures: a put that fails with a RetriableException is delivered again by
 * Connect, but not forever. Once puts have kept failing for {@code transient.errors.timeout.ms} without one
 * succeeding, the failure becomes fatal and the task stops, naming the last error.
 */
final class TransientFailures {

    private final Duration timeout;
    private final Clock clock;
    private final FailureClock failures;

    TransientFailures(Duration timeout, Clock clock) {
        this.timeout = timeout;
        this.clock = clock;
        this.failures = new FailureClock(clock);
    }

    /** A budget of its own, as long as this one's (for failures that other puts succeeding do not end). */
    TransientFailures another() {
        return new TransientFailures(timeout, clock);
    }

    /** A put succeeded: the budget starts again. */
    void succeeded() {
        failures.succeeded();
    }

    /** A put failed transiently: returns what the task throws, the failure itself or, past the budget, a fatal one. */
    RuntimeException failed(RetriableException failure) {
        Duration failing = failures.failed();
        if (failing.compareTo(timeout) <= 0) {
            return failure;
        }
        return new ConnectException("Writing has kept failing with transient errors for " + failing.toSeconds()
                + " s, longer than " + TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG + "="
                + timeout.toMillis() + "; the task stops. The last error: " + failure.getMessage()
                + ". Check " + unanswered(failure).map(SourceTopics.Unanswered::cluster)
                .orElse("the target cluster and converters") + ", or raise "
                + TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG, failure);
    }

    /** The source-topic check's failure the put's failure comes from, if it does. */
    private static Optional<SourceTopics.Unanswered> unanswered(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SourceTopics.Unanswered unanswered) {
                return Optional.of(unanswered);
            }
        }
        return Optional.empty();
    }
}
