package dev.quarantine.connect.rest.replays;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;

import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.OffsetSelection;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayOverlapException;

/** Starts replays asked of the monitor: see {@link Replays#start}. */
final class ReplayStarter {

    private final WorkerRestClient worker;
    private final ReplaySettings replaySettings;
    private final CommittedProgress progress;
    private final StartedReplays started;
    private final Object starting = new Object();

    ReplayStarter(WorkerRestClient worker, ReplaySettings replaySettings, CommittedProgress progress,
                  StartedReplays started) {
        this.worker = worker;
        this.replaySettings = replaySettings;
        this.progress = progress;
        this.started = started;
    }

    Replays.Started start(String topic, Map<String, String> requested, Optional<String> idempotencyKey,
                          Optional<String> authorization) {
        String id = ReplayIds.forRequest(topic, idempotencyKey);
        Map<String, String> settings = replaySettings.forConnector(topic, id, requested);
        OffsetSelection selection = checked(settings);
        Map<String, String> connector = new LinkedHashMap<>();
        connector.put("connector.class", Replays.CONNECTOR_CLASS);
        connector.put("tasks.max", "1");
        connector.putAll(settings);
        synchronized (starting) { // one check-then-create at a time on this worker; POST /connectors settles the rest
            Optional<Replays.Started> earlier = idempotencyKey.isPresent()
                    ? earlier(topic, id, connector, authorization) : Optional.empty();
            if (earlier.isEmpty()) {
                refuseOverlap(topic, selection, authorization);
                refuseRunningOverlap(topic, id, requested);
                WorkerRestClient.Answer created = worker.createConnector(id, connector, authorization);
                if (created.status() == 409 && idempotencyKey.isPresent()) {
                    earlier = earlier(topic, id, connector, authorization);
                }
                if (earlier.isEmpty()) {
                    WorkerRestClient.requireOk(created, "create the replay connector " + id);
                    started.add(id, topic);
                    return new Replays.Started(id, true);
                }
            }
            return earlier.get();
        }
    }

    /** The offsets the replay of {@code settings} selects. @throws MonitorException 400 naming what is wrong */
    private static OffsetSelection checked(Map<String, String> settings) {
        try {
            ReplayConfig config = new ReplayConfig(settings);
            OffsetSelection selection = OffsetSelection.of(config);
            if (config.problemsForWriting().containsKey(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG)) {
                throw MonitorException.badRequest("this worker allows no destination that a dead letter's headers"
                        + " name (" + MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG + " is empty), and the"
                        + " destination is '" + config.destination() + "': name one destination topic, or ask for"
                        + " the worker setting " + MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG + " (a dry run shows"
                        + " where the dead letters would go)");
            }
            config.requireWritable();
            return selection;
        } catch (ConfigException e) {
            throw MonitorException.badRequest(e.getMessage());
        }
    }

    /** The replay an earlier request with the same key started, if any. */
    private Optional<Replays.Started> earlier(String topic, String id, Map<String, String> connector,
                                              Optional<String> authorization) {
        Optional<Map<String, String>> existing = worker.connectorConfig(id, authorization);
        if (existing.isPresent()) {
            if (!ReplayConnectorConfigs.isReplayOf(topic, existing) || !ReplayConnectorConfigs.replaySettings(
                    existing.get()).equals(ReplayConnectorConfigs.replaySettings(connector))) {
                throw MonitorException.unprocessable("this " + ReplayIds.IDEMPOTENCY_KEY_HEADER + " was used for"
                        + " another request (replay " + id + "): send a new key for a new replay");
            }
            started.add(id, topic);
            return Optional.of(new Replays.Started(id, false));
        }
        return progress.latestOf(topic, id).map(p -> new Replays.Started(id, false));
    }

    /**
     * @throws MonitorException 409 naming the first replay connector of {@code topic} still starting or running on
     *                          the topic as it is now ({@link OverlapRule}) whose offset filters select a position
     *                          {@code selection} selects too
     */
    private void refuseOverlap(String topic, OffsetSelection selection, Optional<String> authorization) {
        Map<String, Optional<Uuid>> topicIdNow = new HashMap<>(); // asked once, if a replay RUNNING overlaps at all
        worker.connectorConfigs(authorization).forEach((name, config) -> {
            if (ReplayConnectorConfigs.isReplayOf(topic, Optional.of(config)) && overlaps(selection, config)) {
                OverlapRule.blockingState(progress.latest(name),
                        () -> topicIdNow.computeIfAbsent(topic, progress::topicId)).ifPresent(state -> {
                            throw MonitorException.conflict("replay " + name + " of " + topic + " is " + state
                                    + " and its range overlaps a new replay's: wait until it is DONE, or cancel it"
                                    + " (DELETE /dead-letters/" + topic + "/replays/" + name + ")");
                        });
            }
        });
    }

    /**
     * The engine's own check ({@link ReplayEngine#refuseOverlap}): a RUNNING replay of {@code topic} in the progress
     * topic, started anywhere (another worker, the command line), whose range overlaps the new one's.
     *
     * @throws MonitorException 409 naming it, 404 when the topic does not exist, 503 when it cannot be read
     */
    private void refuseRunningOverlap(String topic, String id, Map<String, String> requested) {
        try {
            ReplayEngine.refuseOverlap(new ReplayConfig(replaySettings.forOwnEngine(topic, id, requested)));
        } catch (ReplayOverlapException e) {
            throw MonitorException.conflict(e.getMessage());
        } catch (ConfigException e) {
            throw MonitorException.notFound("cannot read " + topic + ": " + e.getMessage());
        } catch (KafkaException e) {
            throw MonitorException.unavailable("the replays of " + topic + " could not be checked; retry later",
                    "could not check the running replays of " + topic, e);
        }
    }

    /** Whether a replay connector's offset filters may select a position of {@code selection}: yes when unreadable. */
    private static boolean overlaps(OffsetSelection selection, Map<String, String> connector) {
        try {
            return OffsetSelection.of(new ReplayConfig(connector)).overlaps(selection);
        } catch (ConfigException | IllegalArgumentException e) {
            return true;
        }
    }
}
