package dev.quarantine.connect.sink;

/**
 * What a put that wrote or re-established partitions ends in, decided once from what happened to them:
 *
 * <table>
 * <caption>The end of a put</caption>
 * <tr><th>a partition failed for good</th><th>one failed transiently</th><th>the put asked for a seek</th>
 *     <th>then</th></tr>
 * <tr><td>yes</td><td>any</td><td>any</td><td>{@link #FAIL}: the task fails with it</td></tr>
 * <tr><td>no</td><td>no</td><td>any</td><td>{@link #SUCCEED}</td></tr>
 * <tr><td>no</td><td>yes</td><td>no</td><td>{@link #RETRY}: a RetriableException, Connect delivers the batch
 *     again</td></tr>
 * <tr><td>no</td><td>yes</td><td>yes</td><td>{@link #SEEK_BACK}: the partitions that failed are sought back to
 *     their committed progress, their waiting records dropped, and the put returns</td></tr>
 * </table>
 *
 * <p>Why not retry after a seek: Connect applies a task's seeks at its next poll, but after a RetriableException it
 * first delivers the failed batch again, fetched before the seek. A partition re-established (or fenced) in that put
 * would take the batch's records above its committed progress while records between the two, delivered in earlier
 * puts and dropped with the old writer, are gone for good: a gap. Returning instead lets the seeks act before
 * anything else is delivered, and the partitions that failed are read again from their progress too.
 */
enum PutOutcome {
    SUCCEED, FAIL, RETRY, SEEK_BACK;

    static PutOutcome of(boolean failedForGood, boolean failedTransiently, boolean sought) {
        if (failedForGood) {
            return FAIL;
        }
        if (!failedTransiently) {
            return SUCCEED;
        }
        return sought ? SEEK_BACK : RETRY;
    }
}
