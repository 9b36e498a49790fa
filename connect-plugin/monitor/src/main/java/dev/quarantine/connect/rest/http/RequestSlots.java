package dev.quarantine.connect.rest.http;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.quarantine.connect.rest.MonitorConfig;

/**
 * How many monitor requests of one kind (users', or other workers') run at once: {@link
 * MonitorConfig#MAX_CONCURRENT_REQUESTS_CONFIG}. One beyond waits up to the store wait, then fails retryable (503), so
 * that the worker's REST threads stay free for Kafka Connect's own API.
 */
public final class RequestSlots {

    private final Semaphore permits;
    private final Duration wait;

    public RequestSlots(int maxConcurrent, Duration wait) {
        this.permits = new Semaphore(maxConcurrent);
        this.wait = wait;
    }

    /** {@code work}'s result, computed in a free slot. */
    public <T> T call(Supplier<T> work) {
        boolean acquired;
        try {
            acquired = permits.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MonitorException.retryable("interrupted while waiting for a free monitor request slot", e);
        }
        if (!acquired) {
            throw MonitorException.retryable("more monitor requests at once than "
                    + MonitorConfig.MAX_CONCURRENT_REQUESTS_CONFIG, null);
        }
        try {
            return work.get();
        } finally {
            permits.release();
        }
    }
}
