package dev.quarantine.streams.query;

import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * A state-store read failed because the store is not ready on this instance yet: Kafka Streams is starting or
 * rebalancing, or the store is being restored. The same read on the same instance can succeed later;
 * {@link RetryPolicy} retries it with backoff.
 */
public class StateStoreRetryableException extends InvalidStateStoreException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, naming the store (never a key or value)
     * @param cause   the error Kafka threw, or {@code null} when the failure was reported as a query result
     */
    public StateStoreRetryableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Always {@link StoreErrorCategory#RETRYABLE}. */
    public StoreErrorCategory category() {
        return StoreErrorCategory.RETRYABLE;
    }
}
