package dev.quarantine.streams.query;

import java.util.Optional;

import org.apache.kafka.streams.state.HostInfo;

/**
 * What {@link RetryPolicy#call} ends with when it does not throw: either the read's value (possibly {@code null},
 * as the store answered) or the news that what was read lives on another instance, and which one if known.
 *
 * @param <T> what the read returns
 */
public final class QueryOutcome<T> {

    private final T value;
    private final StateStoreMigratedException migration;
    private final int attempts;

    private QueryOutcome(T value, StateStoreMigratedException migration, int attempts) {
        this.value = value;
        this.migration = migration;
        this.attempts = attempts;
    }

    static <T> QueryOutcome<T> answered(T value, int attempts) {
        return new QueryOutcome<>(value, null, attempts);
    }

    static <T> QueryOutcome<T> migrated(StateStoreMigratedException migration, int attempts) {
        return new QueryOutcome<>(null, migration, attempts);
    }

    /** {@code true} if this instance does not host what was read: ask {@link #owner()} instead. */
    public boolean isMigrated() {
        return migration != null;
    }

    /**
     * The value the read returned on this instance.
     *
     * @throws StateStoreMigratedException if {@link #isMigrated()}: there is no local answer
     */
    public T value() {
        if (migration != null) {
            throw migration;
        }
        return value;
    }

    /** The instance that hosts what was read, if {@link #isMigrated()} and the metadata knows it. */
    public Optional<HostInfo> owner() {
        return migration == null ? Optional.empty() : migration.owner();
    }

    /** The classified error that said the read belongs elsewhere, if {@link #isMigrated()}. */
    public Optional<StateStoreMigratedException> migration() {
        return Optional.ofNullable(migration);
    }

    /** How many times the read ran: 1 if it succeeded (or was found migrated) at once. */
    public int attempts() {
        return attempts;
    }

    @Override
    public String toString() {
        return migration == null ? "QueryOutcome[answered after " + attempts + " attempt(s)]"
                : "QueryOutcome[migrated to " + owner().map(HostInfo::toString).orElse("unknown owner") + "]";
    }
}
