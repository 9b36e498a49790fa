package dev.quarantine.streams.query;

/**
 * What a caller of an interactive query can do about a failed state-store read (the three categories of KIP-216).
 * Each category has its own exception, and all three extend Kafka's
 * {@link org.apache.kafka.streams.errors.InvalidStateStoreException}, so existing catch blocks keep working.
 *
 * @see StoreQueries the table of which Kafka error maps to which category
 */
public enum StoreErrorCategory {

    /** The store is here but not ready (starting, rebalancing, restoring): wait and ask this instance again. */
    RETRYABLE,

    /** The store, partition or key is not hosted here (any more): ask the owning instance, when it is known. */
    MIGRATED,

    /** Asking again cannot help: the instance is stopping or stopped, or the store name or type is wrong. */
    FATAL;

    /**
     * Whether this category is the one to report over {@code other} when one read fails in several places (the
     * partitions of an IQv2 query, the workers of a cluster-wide answer): FATAL first, as asking again cannot help;
     * then RETRYABLE; then MIGRATED. RETRYABLE ranks above MIGRATED because waiting settles both: while a rebalance
     * is in flight the owner a MIGRATED names may be stale, and once this instance is ready a read fails only where
     * the data really moved, as MIGRATED to the settled owner. Sending the caller to an owner first would answer
     * only that owner's share and lose the part that was merely not ready. The one ranking: {@link StoreQueries} and
     * the DLQ monitor's cluster reads both use it.
     */
    public boolean outranks(StoreErrorCategory other) {
        return severity() > other.severity();
    }

    private int severity() {
        return switch (this) {
            case MIGRATED -> 0;
            case RETRYABLE -> 1;
            case FATAL -> 2;
        };
    }
}
