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
    FATAL
}
