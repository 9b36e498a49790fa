package dev.quarantine.replay;

/**
 * The offset filters' notation: a range {@code partition:from-to} (both inclusive) and a position
 * {@code partition@offset} or {@code topic-partition@offset} (as {@link dev.quarantine.txn.RecordPositions} writes it).
 */
final class Positions {

    /** Offsets {@code from} to {@code to}, both inclusive, of one partition. */
    record Range(int partition, long from, long to) {
        boolean contains(int p, long offset) {
            return p == partition && offset >= from && offset <= to;
        }
    }

    /** One offset of one partition. */
    record Position(int partition, long offset) {
    }

    static final String RANGE_FORMAT = "partition:from-to, for example 0:100-199";
    static final String POSITION_FORMAT = "partition@offset or topic-partition@offset, for example 0@42";

    private Positions() {
    }

    /** @throws IllegalArgumentException saying the format when {@code text} is not a range */
    static Range range(String text) {
        String t = text.trim();
        int colon = t.indexOf(':');
        int dash = t.indexOf('-', colon + 1);
        if (colon < 0 || dash < 0) {
            throw new IllegalArgumentException("'" + text + "' is not " + RANGE_FORMAT);
        }
        int partition = partition(t.substring(0, colon), text, RANGE_FORMAT);
        long from = offset(t.substring(colon + 1, dash), text, RANGE_FORMAT);
        long to = offset(t.substring(dash + 1), text, RANGE_FORMAT);
        if (from > to) {
            throw new IllegalArgumentException("'" + text + "' starts after it ends (" + RANGE_FORMAT + ")");
        }
        return new Range(partition, from, to);
    }

    /**
     * @param topic the dead-letter topic: a {@code topic-partition@offset} must name it
     * @throws IllegalArgumentException saying the format when {@code text} is not a position of {@code topic}
     */
    static Position position(String text, String topic) {
        String t = text.trim();
        int at = t.lastIndexOf('@');
        if (at < 0) {
            throw new IllegalArgumentException("'" + text + "' is not " + POSITION_FORMAT);
        }
        String where = t.substring(0, at);
        int dash = where.lastIndexOf('-');
        if (dash >= 0 && !where.substring(0, dash).equals(topic)) {
            throw new IllegalArgumentException("'" + text + "' is not a position in dead-letter topic " + topic);
        }
        return new Position(partition(where.substring(dash + 1), text, POSITION_FORMAT),
                offset(t.substring(at + 1), text, POSITION_FORMAT));
    }

    private static int partition(String part, String text, String format) {
        return (int) number(part, text, format, Integer.MAX_VALUE);
    }

    private static long offset(String part, String text, String format) {
        return number(part, text, format, Long.MAX_VALUE);
    }

    private static long number(String part, String text, String format, long max) {
        try {
            long n = Long.parseLong(part.trim());
            if (n < 0 || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not " + format);
        }
    }
}
