package dev.quarantine.streams.query;

import org.apache.kafka.common.serialization.Serializer;

/**
 * What a failed read was after: a store, maybe one partition of it, maybe one key (only usable for locating the
 * key when its serializer is known). Used to find out whether this instance still hosts it; never logged with the
 * key.
 */
record Target(String storeName, Integer partition, boolean staleStores, Object key, Serializer<Object> keySerializer) {

    static Target store(String storeName) {
        return new Target(storeName, null, false, null, null);
    }

    static Target partition(String storeName, int partition, boolean staleStores) {
        return new Target(storeName, partition, staleStores, null, null);
    }

    Target withKey(Object key) {
        return keySerializer == null || key == null ? this : new Target(storeName, partition, staleStores, key, keySerializer);
    }

    boolean locatesKey() {
        return key != null && keySerializer != null;
    }

    /** The store and partition, for messages; never the key. */
    String describe() {
        return partition == null ? "store " + storeName : "partition " + partition + " of store " + storeName;
    }
}
