package dev.quarantine.txn;

/**
 * What the caller of a failed send should do, as decided by {@link SendErrors#classify(Throwable)}.
 */
public enum SendErrorCategory {

    /** The record itself cannot be written (too large, unserializable, rejected by the topic): dead-letter it. */
    RECORD,

    /** A transient condition (timeout, leader change): the same send may succeed later. */
    RETRIABLE,

    /** The transaction can no longer commit: abort it and replay its input; the producer stays usable. */
    ABORTABLE,

    /** The producer cannot go on (fenced, not authorized, closed, misused): close it and fail or recreate it. */
    FATAL
}
