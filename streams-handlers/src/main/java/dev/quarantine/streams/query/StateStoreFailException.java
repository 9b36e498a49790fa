package dev.quarantine.streams.query;

import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * A state-store read failed and asking again cannot help: the Kafka Streams instance is shutting down, stopped or
 * failed, the store name is not in the topology, the store has another type than the one asked for, or the query
 * itself cannot be served.
 */
public class StateStoreFailException extends InvalidStateStoreException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, naming the store (never a key or value)
     * @param cause   the error Kafka threw, or {@code null} when the failure was reported as a query result
     */
    public StateStoreFailException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Always {@link StoreErrorCategory#FATAL}. */
    public StoreErrorCategory category() {
        return StoreErrorCategory.FATAL;
    }
}
