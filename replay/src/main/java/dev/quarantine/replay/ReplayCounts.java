package dev.quarantine.replay;

/**
 * How many dead letters of a replay's range ended how ({@link Outcome}). Counted in the transaction that writes them,
 * so committed counts match committed records. The components follow the order of {@link Outcome}'s constants.
 *
 * @param refused         dead letters whose destination the replay may not write ({@link Outcome#REFUSED_DESTINATION})
 * @param alreadyReplayed dead letters a finished replay of the same dead-letter topic already wrote
 *                        ({@link Outcome#SKIPPED_ALREADY_REPLAYED})
 */
public record ReplayCounts(long replayed, long deadLetteredAgain, long parked, long skippedByFilter,
                           long skippedTruncated, long skippedUnroutable, long refused, long alreadyReplayed) {

    public static final ReplayCounts ZERO = new ReplayCounts(0, 0, 0, 0, 0, 0, 0, 0);

    /** These counts with one more {@code outcome}. */
    public ReplayCounts plus(Outcome outcome) {
        long[] c = {replayed, deadLetteredAgain, parked, skippedByFilter, skippedTruncated, skippedUnroutable, refused,
            alreadyReplayed};
        c[outcome.ordinal()]++;
        return new ReplayCounts(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
    }
}
