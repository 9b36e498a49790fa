package dev.quarantine.txn.progress;

import org.apache.kafka.common.KafkaException;

/**
 * A record of a compacted topic that its {@link KeyedFormat} does not read: the read is refused rather than answer
 * without it (a reader that skipped it would take an older state, or none, for the latest). Not retriable: the same
 * record is there at the next read. The message names the record by {@code topic-partition@offset}, never its key
 * or value.
 */
public class UnreadableRecordException extends KafkaException {

    private final String position;

    UnreadableRecordException(String position, IllegalArgumentException cause) {
        super("The record " + position + " cannot be read: " + cause.getMessage(), cause);
        this.position = position;
    }

    /** The record's {@code topic-partition@offset}. */
    public String position() {
        return position;
    }
}
