package dev.quarantine.txn;

/**
 * The one formatter for where a record is: {@code topic-partition@offset}, the way every message and log line of this
 * project names a record; never its key or value. The sink, the Streams handler and the monitor all call it.
 */
public final class RecordPositions {

    private RecordPositions() {
    }

    /** {@code topic-partition@offset}, for example {@code orders-3@1042}. */
    public static String of(String topic, int partition, long offset) {
        return topic + "-" + partition + "@" + offset;
    }
}
