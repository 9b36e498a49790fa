package dev.quarantine.connect.rest.replays;

import java.util.Optional;
import java.util.function.Supplier;

import org.apache.kafka.common.Uuid;

import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayState;

/**
 * Whether a replay connector of a dead-letter topic, whose offset filters overlap a new replay's, blocks that new
 * replay (409), and as what. The first row that matches decides:
 *
 * <table>
 * <caption>Overlap rule</caption>
 * <tr><th>the connector's committed progress</th><th>blocks as</th></tr>
 * <tr><td>none yet</td><td>STARTING</td></tr>
 * <tr><td>DONE or CANCELLED</td><td>(does not block)</td></tr>
 * <tr><td>RUNNING, of another topic id than the dead-letter topic's now (it was deleted and created again under
 *     its name): the old replay reads nothing of the new topic's range</td><td>(does not block)</td></tr>
 * <tr><td>RUNNING, of the topic id the dead-letter topic has now</td><td>RUNNING</td></tr>
 * </table>
 */
final class OverlapRule {

    static final String STARTING = "STARTING";

    private OverlapRule() {
    }

    /**
     * @param topicIdNow the dead-letter topic's id now; empty when it does not exist (then no progress matches it);
     *                   asked only for a RUNNING replay
     * @return the state to name in the 409, or empty when the connector does not block
     */
    static Optional<String> blockingState(Optional<ReplayProgress> progress, Supplier<Optional<Uuid>> topicIdNow) {
        if (progress.isEmpty()) {
            return Optional.of(STARTING);
        }
        ReplayProgress p = progress.get();
        if (p.finished() || topicIdNow.get().filter(p.dlqTopicId()::equals).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ReplayState.RUNNING.name());
    }
}
