package dev.quarantine.txn.progress;

import java.util.Optional;

/**
 * How the records of one key family of a compacted topic are read, for {@link CompactedTopicReader}: the one reader
 * of a format (for example the sink's progress records, the replay's progress records) passed in, so that the read
 * itself (its end, last record per key, tombstones) is written once.
 *
 * @param <V> what a record's value is read as
 */
@FunctionalInterface
public interface KeyedFormat<V> {

    /**
     * The value of the record keyed {@code key} at {@code position} ({@code topic-partition@offset}, for messages; a
     * tombstone goes to {@link #tombstone}), or empty when the caller does not
     * keep that key (another family's, another writer's): the key then has no value in the read, whatever an earlier
     * record of it said. Called in offset order per partition. An exception other than
     * {@link IllegalArgumentException} ends the read as it is.
     *
     * @throws IllegalArgumentException when the value is not one of this format (an unknown version, a field
     *                                  missing): the read is refused with {@link UnreadableRecordException}
     */
    Optional<V> read(String key, byte[] value, String position);

    /**
     * What the tombstone keyed {@code key} at {@code position} ({@code topic-partition@offset}) means, so that the
     * caller decides: empty (the default) deletes the key, as compaction will; a value keeps one for it (a reset the
     * caller reads as such, with the offset {@code position} names). Called in offset order with the records.
     *
     * @throws IllegalArgumentException when this format allows no tombstone under {@code key} (its records are never
     *                                  deleted, so a tombstone there is an outside write): the read is refused with
     *                                  {@link UnreadableRecordException} naming {@code position}
     */
    default Optional<V> tombstone(String key, String position) {
        return Optional.empty();
    }
}
