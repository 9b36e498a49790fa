package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Fences the log does not explain (design 2.5, review finding 5). A fence of the slot is explained when the read of
 * partition 1 after the re-initialisation shows a later claim of another id for one of the slot's partitions (a move),
 * or when the slot's transaction had outlived {@code transaction.timeout.ms}; explained fences never fail the task,
 * however many. An unexplained fence comes from another live instance of the own id (a zombie worker's task: it ends
 * when Connect stops one of them) or from another connector with the same {@code transactional.id.prefix} (it never
 * ends). The task fails only when unexplained fences keep it from committing for longer than
 * {@code transient.errors.timeout.ms}: the clock starts at the first unexplained fence after the last commit, and a
 * commit stops it.
 *
 * <table>
 * <caption>What moves the clock</caption>
 * <tr><th>event</th><th>clock</th></tr>
 * <tr><td>an explained fence</td><td>unchanged</td></tr>
 * <tr><td>an unexplained fence, the clock stopped</td><td>starts now</td></tr>
 * <tr><td>an unexplained fence, the clock running</td><td>unchanged</td></tr>
 * <tr><td>a commit of the slot</td><td>stopped</td></tr>
 * </table>
 */
final class UnexplainedFences {

    private final Duration limit;
    private final FailureClock unexplained;

    UnexplainedFences(Duration limit, Clock clock) {
        this.limit = limit;
        this.unexplained = new FailureClock(clock);
    }

    /** The slot was fenced; {@code explained} as the class comment says. */
    void fenced(boolean explained) {
        if (!explained) {
            unexplained.failed();
        }
    }

    /** The slot committed a transaction. */
    void committed() {
        unexplained.succeeded();
    }

    /** How long unexplained fences have kept the slot from committing, once that is longer than the limit. */
    Optional<Duration> overLimit() {
        return unexplained.failing().filter(running -> running.compareTo(limit) > 0);
    }
}
