package dev.quarantine.streams.query;

import java.util.Optional;

import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;

/**
 * A state-store read failed because the store, the partition or the key is not hosted on this instance (any more):
 * ask the instance that owns it. {@link #owner()} names it when the application's metadata knows it
 * ({@code application.server} is set, and {@link StoreQueries} was told this instance's own host).
 */
public class StateStoreMigratedException extends InvalidStateStoreException {

    private static final long serialVersionUID = 1L;

    private final transient HostInfo owner;

    /**
     * @param message what failed, naming the store (never a key or value)
     * @param cause   the error Kafka threw, or {@code null}
     * @param owner   the {@code application.server} of the instance that hosts it now, or {@code null} if unknown
     */
    public StateStoreMigratedException(String message, Throwable cause, HostInfo owner) {
        super(message, cause);
        this.owner = owner;
    }

    /** The instance that hosts the store, partition or key now, if the metadata knows it. */
    public Optional<HostInfo> owner() {
        return Optional.ofNullable(owner);
    }

    /** Always {@link StoreErrorCategory#MIGRATED}. */
    public StoreErrorCategory category() {
        return StoreErrorCategory.MIGRATED;
    }
}
