package dev.quarantine.connect.rest.replays;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayListener;
import dev.quarantine.replay.ReplayProgress;

/** Cancels replays asked of the monitor: see {@link Replays#cancel}. */
final class ReplayCanceller {

    /** Producers a cancellation may try while the replay's task, still starting or stopping, fences them. */
    static final int MAX_CANCEL_ATTEMPTS = 5;

    private static final Logger log = LoggerFactory.getLogger(ReplayCanceller.class);

    /** The cancelling engine writes progress only; it replays nothing, so no destination is allowed to it. */
    private static final String NO_DESTINATION = "(?!)";

    private final WorkerRestClient worker;
    private final ReplaySettings replaySettings;
    private final CommittedProgress progress;

    ReplayCanceller(WorkerRestClient worker, ReplaySettings replaySettings, CommittedProgress progress) {
        this.worker = worker;
        this.replaySettings = replaySettings;
        this.progress = progress;
    }

    Map<String, Object> cancel(String topic, String id, Optional<String> authorization) {
        Optional<Map<String, String>> connector = worker.connectorConfig(id, authorization);
        boolean known = connector.isPresent() ? ReplayConnectorConfigs.isReplayOf(topic, connector)
                : progress.latestOf(topic, id).isPresent();
        if (!known) {
            throw MonitorException.notFound("no replay " + id + " of " + topic);
        }
        WorkerRestClient.Answer deleted = worker.deleteConnector(id, authorization);
        if (!(deleted.status() == 404 && connector.isEmpty())) {
            WorkerRestClient.requireOk(deleted, "delete the replay connector " + id);
        }
        Map<String, String> settings = new LinkedHashMap<>(replaySettings.forOwnEngine(topic, id,
                Map.of(ReplayConfig.PROGRESS_TOPIC_CONFIG, ReplayConfig.PROGRESS_TOPIC_DEFAULT)));
        settings.put(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, NO_DESTINATION);
        return ReplayView.of(commitCancellation(id, new ReplayConfig(settings)));
    }

    /**
     * Commits the replay's progress as CANCELLED with a producer of its own, fencing the replay's task; again with a
     * new one while the task, still starting, fences it back ({@link CancelAttempts}).
     */
    private ReplayProgress commitCancellation(String id, ReplayConfig config) {
        CancelAttempts attempts = new CancelAttempts(MAX_CANCEL_ATTEMPTS);
        while (true) {
            try (ReplayEngine engine = new ReplayEngine(config, ReplayEngine.Mode.WRITE, ReplayListener.NONE)) {
                return engine.fenceAndCancel(); // reads nothing of the dead-letter topic: it may be deleted
            } catch (KafkaException e) {
                if (attempts.after(e) == CancelAttempts.Decision.GIVE_UP) {
                    throw MonitorException.unavailable("the replay connector " + id + " is deleted, but its progress"
                            + " could not be committed as CANCELLED (" + attempts.attempts() + " attempts); send the"
                            + " DELETE again", "could not commit the cancellation of replay " + id + " after "
                            + attempts.attempts() + " attempts", e);
                }
                log.warn("Replay {}: the cancellation was fenced by the replay's task, which the worker is still"
                        + " starting or stopping ({}); cancelling again with a new producer ({} of {})", id,
                        e.toString(), attempts.attempts(), MAX_CANCEL_ATTEMPTS);
            }
        }
    }
}
