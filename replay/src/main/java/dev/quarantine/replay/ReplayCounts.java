package dev.quarantine.replay;

/**
 * How many dead letters of a replay's range ended how ({@link Outcome}). Counted in the transaction that writes them,
 * so committed counts match committed records.
 */
public record ReplayCounts(long replayed, long deadLetteredAgain, long parked, long skippedByFilter,
                           long skippedTruncated, long skippedUnroutable) {

    public static final ReplayCounts ZERO = new ReplayCounts(0, 0, 0, 0, 0, 0);

    /** These counts with one more {@code outcome}. */
    public ReplayCounts plus(Outcome outcome) {
        return switch (outcome) {
            case REPLAYED -> new ReplayCounts(replayed + 1, deadLetteredAgain, parked, skippedByFilter,
                    skippedTruncated, skippedUnroutable);
            case DEAD_LETTERED_AGAIN -> new ReplayCounts(replayed, deadLetteredAgain + 1, parked, skippedByFilter,
                    skippedTruncated, skippedUnroutable);
            case PARKED -> new ReplayCounts(replayed, deadLetteredAgain, parked + 1, skippedByFilter,
                    skippedTruncated, skippedUnroutable);
            case SKIPPED_BY_FILTER -> new ReplayCounts(replayed, deadLetteredAgain, parked, skippedByFilter + 1,
                    skippedTruncated, skippedUnroutable);
            case SKIPPED_TRUNCATED -> new ReplayCounts(replayed, deadLetteredAgain, parked, skippedByFilter,
                    skippedTruncated + 1, skippedUnroutable);
            case SKIPPED_UNROUTABLE -> new ReplayCounts(replayed, deadLetteredAgain, parked, skippedByFilter,
                    skippedTruncated, skippedUnroutable + 1);
        };
    }
}
