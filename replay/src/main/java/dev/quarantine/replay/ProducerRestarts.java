package dev.quarantine.replay;

import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;

/**
 * What a failed transaction of a replay's producer means, right after a replay resumed from an instance that died
 * (kill -9) with a transaction open. Its {@code initTransactions} fenced that instance and had the coordinator end
 * its transaction; while the end (markers, epoch bumps) is still settling, the new producer's first transaction can
 * fail with InvalidTxnStateException or InvalidProducerEpochException although no other instance exists. Such a
 * failure is met with a new producer and a new {@code initTransactions}, resuming from the committed progress; a
 * ProducerFencedException means a newer instance with the same transactional.id did its own initTransactions: a real
 * takeover.
 *
 * <table>
 * <caption>After a failed transaction</caption>
 * <tr><th>error (or a cause)</th><th>this producer committed since its init</th><th>decision</th></tr>
 * <tr><td>ProducerFencedException</td><td>any</td><td>TAKEN_OVER</td></tr>
 * <tr><td>InvalidTxnStateException, InvalidProducerEpochException</td><td>no, and restarts left</td>
 *     <td>RESTART</td></tr>
 * <tr><td>InvalidTxnStateException, InvalidProducerEpochException</td><td>no, no restarts left</td>
 *     <td>GIVE_UP</td></tr>
 * <tr><td>InvalidTxnStateException, InvalidProducerEpochException</td><td>yes (a zombie)</td>
 *     <td>TAKEN_OVER</td></tr>
 * <tr><td>any other</td><td>any</td><td>OTHER (the caller's usual handling)</td></tr>
 * </table>
 */
final class ProducerRestarts {

    enum Decision { RESTART, TAKEN_OVER, GIVE_UP, OTHER }

    private final int maxRestarts;
    private int restarts;

    ProducerRestarts(int maxRestarts) {
        this.maxRestarts = maxRestarts;
    }

    /** Decides, counting a RESTART against the limit. */
    Decision after(Throwable error, boolean committedSinceInit) {
        if (has(error, ProducerFencedException.class)) {
            return Decision.TAKEN_OVER;
        }
        if (!has(error, InvalidTxnStateException.class) && !has(error, InvalidProducerEpochException.class)) {
            return Decision.OTHER;
        }
        if (committedSinceInit) {
            return Decision.TAKEN_OVER;
        }
        if (restarts >= maxRestarts) {
            return Decision.GIVE_UP;
        }
        restarts++;
        return Decision.RESTART;
    }

    int restarts() {
        return restarts;
    }

    private static boolean has(Throwable error, Class<? extends Throwable> type) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }
}
