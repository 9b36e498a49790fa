package dev.quarantine.connect.sink.write;

/**
 * What becomes of commits of a running writer that a failing transaction held open (see {@link RunningRedo}), when
 * the failure stops the task (a fatal error, the progress record refused): no intent may be logged or claimed that
 * was not committed.
 *
 * <table>
 * <caption>Before the task fails</caption>
 * <tr><th>commits held open</th><th>the abort</th><th>then</th></tr>
 * <tr><td>none</td><td>any</td><td>{@link #NONE_HELD}: the task fails with the failure</td></tr>
 * <tr><td>some</td><td>failed (a producer-fatal error, a timeout)</td><td>{@link #PRODUCER_BROKEN}: no intent can
 *     commit, and no next producer of this task follows; the task fails with an error naming the records lost
 *     ({@link WriterErrors.RedoLost})</td></tr>
 * <tr><td>some</td><td>done</td><td>{@link #COMMIT_INTENT}: the intent to redo is committed, and the next open
 *     redoes them; when it cannot commit, the task fails naming them</td></tr>
 * </table>
 */
enum HeldCommitsOnFailure {
    NONE_HELD, PRODUCER_BROKEN, COMMIT_INTENT;

    static HeldCommitsOnFailure of(boolean held, boolean aborted) {
        if (!held) {
            return NONE_HELD;
        }
        return aborted ? COMMIT_INTENT : PRODUCER_BROKEN;
    }
}
