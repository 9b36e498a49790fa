package dev.quarantine.sandbox;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The one wait of the tests, the demo and the benchmarks: polls a condition until it holds or a deadline passes, then
 * fails with an {@link AssertionError} naming what was awaited. Never a fixed sleep as synchronisation.
 */
public final class Await {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        value(() -> what, timeout, () -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }

    /** As {@link #until(String, Duration, BooleanSupplier)}; {@code what} is computed at the deadline. */
    public static void until(Supplier<String> what, Duration timeout, BooleanSupplier condition) {
        value(what, timeout, () -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }

    /** Polls {@code probe} until it answers non-null, and returns that; fails naming {@code what} after {@code timeout}. */
    public static <T> T value(String what, Duration timeout, Supplier<T> probe) {
        return value(() -> what, timeout, probe);
    }

    /** As {@link #value(String, Duration, Supplier)}; {@code what} is computed at the deadline, to say what was seen. */
    public static <T> T value(Supplier<String> what, Duration timeout, Supplier<T> probe) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            T value = probe.get();
            if (value != null) {
                return value;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what.get());
            }
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("interrupted while waiting for " + what.get());
            }
        }
    }
}
