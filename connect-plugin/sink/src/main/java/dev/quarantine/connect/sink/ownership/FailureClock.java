package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long failures have kept something from succeeding: the clock starts at the first failure after the last
 * success and a success stops it. The one clock behind the task's bounds on failing for
 * {@code transient.errors.timeout.ms}: a put's transient failures ({@code TransientFailures}), a stage of opening
 * ({@link StageFailures}), fences no claim explains ({@link UnexplainedFences}).
 */
public final class FailureClock {

    private final Clock clock;
    private Instant since;

    public FailureClock(Clock clock) {
        this.clock = clock;
    }

    /** A failure: starts the clock unless it runs; returns how long the failures have lasted, now included. */
    public Duration failed() {
        Instant now = clock.instant();
        if (since == null) {
            since = now;
        }
        return Duration.between(since, now);
    }

    /** A success: stops the clock. */
    public void succeeded() {
        since = null;
    }

    /** How long the failures have lasted until now; empty while the clock is stopped. */
    public Optional<Duration> failing() {
        return since == null ? Optional.empty() : Optional.of(Duration.between(since, clock.instant()));
    }
}
