package dev.quarantine.connect.rest.replays;

import dev.quarantine.txn.SendErrors;

/**
 * What a failed attempt to commit a replay's cancellation means. The worker answers the DELETE of the replay's
 * connector once it has recorded the deletion, before its herder has stopped the connector's task; a task still
 * starting runs its start to the end, and its producer (the replay's transactional.id) then fences the cancelling
 * one, whose commit fails. A new cancelling producer fences the task's in turn and reads what it committed; a task
 * of a deleted connector is not started again, so this ends within a few attempts.
 *
 * <table>
 * <caption>After a failed attempt</caption>
 * <tr><th>error (or a cause)</th><th>attempts left</th><th>decision</th></tr>
 * <tr><td>fencing ({@link SendErrors#isFencing}: ProducerFencedException, InvalidProducerEpochException,
 *     InvalidTxnStateException, InvalidPidMappingException)</td><td>yes</td><td>AGAIN (a new cancelling
 *     producer)</td></tr>
 * <tr><td>fencing</td><td>no</td><td>GIVE_UP</td></tr>
 * <tr><td>any other</td><td>any</td><td>GIVE_UP</td></tr>
 * </table>
 */
final class CancelAttempts {

    enum Decision { AGAIN, GIVE_UP }

    private final int maxAttempts;
    private int attempts;

    CancelAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** Decides after the failure of one attempt, counting it. */
    Decision after(Throwable error) {
        attempts++;
        if (!SendErrors.isFencing(error) || attempts >= maxAttempts) {
            return Decision.GIVE_UP;
        }
        return Decision.AGAIN;
    }

    int attempts() {
        return attempts;
    }
}
