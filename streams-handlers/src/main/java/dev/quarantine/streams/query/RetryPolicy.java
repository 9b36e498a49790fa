package dev.quarantine.streams.query;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * Runs a state-store read until it answers, following its error category: {@link StoreErrorCategory#RETRYABLE}
 * errors are retried with exponential backoff (doubling from the initial to the maximum pause) until the deadline,
 * then the last one is thrown; {@link StoreErrorCategory#MIGRATED} is returned at once as a
 * {@link QueryOutcome#isMigrated() migrated outcome} naming the owner; {@link StoreErrorCategory#FATAL} is thrown at
 * once. Errors that are the caller's own (an illegal or null argument, an exhausted iterator) are thrown as they are.
 *
 * <p>Make the read do the store lookup too ({@code () -> queries.store(params).get(key)}), so that each attempt
 * finds the store as it is after a rebalance. Obtain a policy from {@link StoreQueries#retrying(Duration)}; it is
 * immutable and thread-safe.
 */
public final class RetryPolicy {

    static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(10);
    static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(1);
    private static final Target UNKNOWN_STORE = Target.store("(not named: a read outside StoreQueries)");

    /** Waits between attempts; a fake one in unit tests. */
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private final Classifier classifier;
    private final Duration deadline;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;

    RetryPolicy(Classifier classifier, Duration deadline, Duration initialBackoff, Duration maxBackoff,
                LongSupplier nanoClock, Sleeper sleeper) {
        this.classifier = classifier;
        this.deadline = positive(deadline, "deadline");
        this.initialBackoff = positive(initialBackoff, "initial backoff");
        this.maxBackoff = positive(maxBackoff, "max backoff");
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("max backoff " + maxBackoff + " is shorter than initial backoff " + initialBackoff);
        }
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
    }

    static RetryPolicy systemClock(Classifier classifier, Duration deadline) {
        return new RetryPolicy(classifier, deadline, DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF,
                System::nanoTime, nanos -> TimeUnit.NANOSECONDS.sleep(nanos));
    }

    /** The same policy pausing {@code initial} after the first failure, doubling up to {@code max} (10 ms and 1 s by default). */
    public RetryPolicy withBackoff(Duration initial, Duration max) {
        return new RetryPolicy(classifier, deadline, initial, max, nanoClock, sleeper);
    }

    /**
     * Runs {@code read} until it answers, is found migrated, fails fatally, or the deadline passes.
     *
     * @return the answer, or a migrated outcome naming the owner
     * @throws StateStoreRetryableException the last retryable error, once the deadline has passed
     * @throws StateStoreFailException      at once, on a fatal error
     * @throws InterruptException           if interrupted while waiting (the interrupt flag stays set)
     */
    public <T> QueryOutcome<T> call(Supplier<T> read) {
        long end = nanoClock.getAsLong() + deadline.toNanos();
        long backoff = initialBackoff.toNanos();
        for (int attempt = 1; ; attempt++) {
            InvalidStateStoreException error;
            try {
                return QueryOutcome.answered(read.get(), attempt);
            } catch (RuntimeException e) {
                if (Classifier.isCallerError(e)) {
                    throw e;
                }
                error = classifier.classify(e, UNKNOWN_STORE);
            }
            if (error instanceof StateStoreMigratedException) {
                return QueryOutcome.migrated((StateStoreMigratedException) error, attempt);
            }
            long remaining = end - nanoClock.getAsLong();
            if (!(error instanceof StateStoreRetryableException) || remaining <= 0) {
                throw error;
            }
            pause(Math.min(backoff, remaining), error);
            backoff = Math.min(backoff * 2, maxBackoff.toNanos());
        }
    }

    private void pause(long nanos, InvalidStateStoreException lastError) {
        try {
            sleeper.sleep(nanos);
        } catch (InterruptedException e) {
            InterruptException interrupted = new InterruptException("interrupted while waiting to retry a state-store read", e);
            interrupted.addSuppressed(lastError);
            throw interrupted;
        }
    }

    private static Duration positive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + duration);
        }
        return duration;
    }
}
