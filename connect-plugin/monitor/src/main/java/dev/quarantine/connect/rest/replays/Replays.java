package dev.quarantine.connect.rest.replays;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayProgress;

/**
 * Replays started, watched and cancelled from the monitor. A replay is a {@code DeadLetterReplayConnector} created
 * through this worker's own REST API with the caller's credentials, so it outlives the worker that started it; its
 * id is the connector's name and its {@code replay.id} ({@link ReplayIds}). Its progress is read from the replays'
 * progress topic ({@value ReplayConfig#PROGRESS_TOPIC_DEFAULT}, {@link CommittedProgress}); a replay connector naming
 * another progress topic is not one of the monitor's, and the monitor never writes there. By concern: dry runs
 * ({@link DryRuns}), starts ({@link ReplayStarter}), progress ({@link ProgressAnswer}), cancellations
 * ({@link ReplayCanceller}).
 */
public final class Replays implements AutoCloseable {

    /** The replay connector (another module of the plugin: named, never linked; PluginContractTest holds it). */
    public static final String CONNECTOR_CLASS = "dev.quarantine.connect.replay.DeadLetterReplayConnector";

    /** How a start request ended: a new replay, or the one an earlier request with the same key started. */
    public record Started(String id, boolean created) {
    }

    private final WorkerRestClient worker;
    private final CommittedProgress progress;
    private final StartedReplays started = new StartedReplays();
    private final DryRuns dryRuns;
    private final ReplayStarter starter;
    private final ReplayCanceller canceller;

    public Replays(WorkerRestClient worker, Map<String, Object> clientConfigs, Duration timeout,
            ReplayDestinations destinations, Duration dryRunLimit, DryRunSlots dryRunSlots) {
        Map<String, Object> clients = Map.copyOf(clientConfigs);
        this.worker = worker;
        this.progress = new CommittedProgress(clients, timeout);
        ReplaySettings settings = new ReplaySettings(clients, destinations);
        this.dryRuns = new DryRuns(worker, settings, dryRunLimit, dryRunSlots);
        this.starter = new ReplayStarter(worker, settings, progress, started);
        this.canceller = new ReplayCanceller(worker, settings, progress);
    }

    /**
     * What a replay of {@code requested} would do, from the engine's dry run (the same filters and destination rules,
     * nothing written, no connector): per destination topic, the counts, and whether the whole topic was read within
     * {@code quarantine.monitor.replay.dry.run.timeout.ms}. The caller needs the right a start needs (to create
     * connectors, asked of the worker with the caller's credentials), and a free slot ({@link DryRunSlots}).
     * @throws MonitorException 400 naming a bad field or setting, the worker's 401/403, 429 when the slots are busy
     */
    public Map<String, Object> dryRun(String topic, Map<String, String> requested, Optional<String> authorization) {
        return dryRuns.run(topic, requested, authorization);
    }

    /**
     * Creates the replay connector, unless an earlier request with the same {@code idempotencyKey} did (then answers
     * that replay). @throws MonitorException 400 naming a bad field or setting, 409 naming a replay of {@code topic}
     * still starting or running, 422 when the key was used for another request
     */
    public Started start(String topic, Map<String, String> requested, Optional<String> idempotencyKey,
                  Optional<String> authorization) {
        return starter.start(topic, requested, idempotencyKey, authorization);
    }

    /** The answer to a start: STARTING for a new replay, else the progress of the one started earlier. */
    public Map<String, Object> answer(String topic, Started started, Optional<String> authorization) {
        return started.created() ? ReplayView.starting(started.id(), topic)
                : progress(topic, started.id(), authorization);
    }

    /**
     * The replay's progress and counts, or STARTING before it committed any ({@link ProgressAnswer}).
     * @throws MonitorException 404 when no replay of {@code topic} has this id
     */
    public Map<String, Object> progress(String topic, String id, Optional<String> authorization) {
        ReplayIds.check(id);
        Optional<ReplayProgress> committed = progress.latest(id);
        if (committed.isPresent()) {
            started.remove(id);
        }
        return ProgressAnswer.of(topic, id, committed, started.contains(id, topic),
                () -> worker.connectorConfig(id, authorization));
    }

    /**
     * Deletes the replay's connector and commits its progress as CANCELLED: a new instance of the replay's producer
     * fences any instance still running, so nothing is written after the answer. The caller's right to do so is the
     * worker's to decide, in every case: the connector is deleted with the caller's credentials, and when it is gone
     * already that same call (answered 404 only once the worker's authentication and authorization let it through)
     * is what allows the cancellation. The progress is committed only to the replays' progress topic. The
     * dead-letter topic is not read, so a replay whose dead-letter topic was deleted is cancelled like any other.
     */
    public Map<String, Object> cancel(String topic, String id, Optional<String> authorization) {
        ReplayIds.check(id);
        Map<String, Object> cancelled = canceller.cancel(topic, id, authorization);
        started.remove(id);
        return cancelled;
    }

    @Override
    public void close() {
        progress.close();
    }
}
