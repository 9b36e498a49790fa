package dev.quarantine.connect.rest.replays;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayProgress;

/**
 * What {@code GET /dead-letters/{topic}/replays/{id}} answers: what is known, from the progress topic first, never
 * from a call that Connect's group rebalance holds back when the monitor knows better. The worker is asked whether
 * the replay's connector exists only when nothing else tells. The first row that matches decides:
 *
 * <table>
 * <caption>The answer</caption>
 * <tr><th>committed progress</th><th>started here ({@link StartedReplays})</th><th>the worker's connector</th>
 *     <th>answer</th></tr>
 * <tr><td>of the topic</td><td>any</td><td>not asked</td><td>the progress (RUNNING, DONE, CANCELLED)</td></tr>
 * <tr><td>of another topic</td><td>any</td><td>not asked</td><td>404</td></tr>
 * <tr><td>none</td><td>yes</td><td>not asked</td><td>STARTING</td></tr>
 * <tr><td>none</td><td>no</td><td>a replay of the topic</td><td>STARTING</td></tr>
 * <tr><td>none</td><td>no</td><td>none, or another connector</td><td>404</td></tr>
 * <tr><td>none</td><td>no</td><td>no answer (rebalancing, unreachable)</td><td>503 naming it, with
 *     Retry-After</td></tr>
 * </table>
 */
final class ProgressAnswer {

    private ProgressAnswer() {
    }

    /**
     * @param connector the worker's config of the connector named {@code id}, empty when it has none
     * @throws MonitorException 404 when no replay of {@code topic} has this id; the worker's 503 when it must be
     *                          asked and cannot answer
     */
    static Map<String, Object> of(String topic, String id, Optional<ReplayProgress> committed, boolean startedHere,
                                  Supplier<Optional<Map<String, String>>> connector) {
        if (committed.isPresent()) {
            if (committed.get().dlqTopic().equals(topic)) {
                return ReplayView.of(committed.get());
            }
        } else if (startedHere || ReplayConnectorConfigs.isReplayOf(topic, connector.get())) {
            return ReplayView.starting(id, topic);
        }
        throw MonitorException.notFound("no replay " + id + " of " + topic);
    }
}
