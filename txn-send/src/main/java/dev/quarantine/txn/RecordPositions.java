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

    /**
     * The offset of a position {@link #of} wrote (what follows its last {@code @}).
     *
     * @throws IllegalArgumentException when {@code position} is not one
     */
    public static long offsetOf(String position) {
        int at = position.lastIndexOf('@');
        try {
            long offset = Long.parseLong(position.substring(at + 1));
            if (at <= 0 || offset < 0 || !position.substring(at + 1).equals(Long.toString(offset))) {
                throw new NumberFormatException();
            }
            return offset;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + position + "' is not a position topic-partition@offset");
        }
    }
}
