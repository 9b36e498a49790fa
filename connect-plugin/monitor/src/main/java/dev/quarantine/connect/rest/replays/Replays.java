package dev.quarantine.connect.rest.replays;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.replay.OffsetSelection;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayListener;
import dev.quarantine.replay.ReplayOverlapException;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayProgressReader;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.MonitorConfig;

/**
 * Replays started, watched and cancelled from the monitor. A replay is a {@code DeadLetterReplayConnector} created
 * through this worker's own REST API with the caller's credentials, so it outlives the worker that started it; its
 * id is the connector's name and its {@code replay.id} ({@link ReplayIds}). Its progress is read from the replays'
 * progress topic ({@value ReplayConfig#PROGRESS_TOPIC_DEFAULT}); a replay connector naming another progress topic is
 * not one of the monitor's, and the monitor never writes there.
 */
public final class Replays implements AutoCloseable {

    /** The replay connector (another module of the plugin: named, never linked; PluginContractTest holds it). */
    public static final String CONNECTOR_CLASS = "dev.quarantine.connect.replay.DeadLetterReplayConnector";

    /** How a start request ended: a new replay, or the one an earlier request with the same key started. */
    public record Started(String id, boolean created) {
    }

    /** Producers a cancellation may try while the replay's task, still starting or stopping, fences them. */
    static final int MAX_CANCEL_ATTEMPTS = 5;

    private static final Logger log = LoggerFactory.getLogger(Replays.class);

    /** The cancelling engine writes progress only; it replays nothing, so no destination is allowed to it. */
    private static final String NO_DESTINATION = "(?!)";

    private final WorkerRestClient worker;
    private final Map<String, Object> clientConfigs;
    private final Duration timeout;
    private final ReplayDestinations destinations;
    private final Duration dryRunLimit;
    private final DryRunSlots dryRunSlots;
    private final Object starting = new Object();
    private ReplayProgressReader reader;

    public Replays(WorkerRestClient worker, Map<String, Object> clientConfigs, Duration timeout,
            ReplayDestinations destinations, Duration dryRunLimit, DryRunSlots dryRunSlots) {
        this.worker = worker;
        this.clientConfigs = Map.copyOf(clientConfigs);
        this.timeout = timeout;
        this.destinations = destinations;
        this.dryRunLimit = dryRunLimit;
        this.dryRunSlots = dryRunSlots;
    }

    /**
     * What a replay of {@code requested} would do, from the engine's dry run (the same filters and destination rules,
     * nothing written, no connector): per destination topic, the counts, and whether the whole topic was read within
     * {@code quarantine.monitor.replay.dry.run.timeout.ms}. The caller needs the right a start needs (to create
     * connectors, asked of the worker with the caller's credentials), and a free slot ({@link DryRunSlots}).
     * @throws MonitorException 400 naming a bad field or setting, the worker's 401/403, 429 when the slots are busy
     */
    public Map<String, Object> dryRun(String topic, Map<String, String> requested, Optional<String> authorization) {
        requireRightToStart(topic, authorization);
        return dryRunSlots.run(() -> dryRunNow(topic, requested));
    }

    /**
     * @throws MonitorException the worker's 401/403 (or other refusal) when it would not let the caller create the
     *                          replay connector a start creates
     */
    private void requireRightToStart(String topic, Optional<String> authorization) {
        String probe = "dry-run-" + ReplayIds.forRequest(topic, Optional.empty());
        WorkerRestClient.Answer answer = worker.probeCreateConnector(probe, authorization);
        if (answer.status() == 400 && answer.message().contains(probe + WorkerRestClient.MISMATCHED_NAME_SUFFIX)) {
            return; // refused by the resource itself, after the worker's authentication and authorization
        }
        WorkerRestClient.requireOk(answer, "let the caller start a replay, which a dry run needs too");
        throw MonitorException.fatal("the worker accepted a connector config naming another connector (" + probe
                + "): cannot tell whether the caller may start a replay", null);
    }

    private Map<String, Object> dryRunNow(String topic, Map<String, String> requested) {
        Map<String, String> settings = new LinkedHashMap<>(requested);
        settings.putAll(connectionSettingsWithSecrets());
        settings.putAll(destinations.settings());
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, topic);
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "dry-run-" + ReplayIds.forRequest(topic, Optional.empty()));
        ReplayConfig config;
        try {
            config = new ReplayConfig(settings);
        } catch (ConfigException e) {
            throw MonitorException.badRequest(e.getMessage());
        }
        try {
            return ReplayView.of(topic, ReplayEngine.dryRun(config, dryRunLimit));
        } catch (ConfigException e) {
            throw MonitorException.notFound("cannot read " + topic + ": " + e.getMessage());
        } catch (KafkaException e) {
            throw MonitorException.unavailable(topic + " could not be read for a dry run; retry later",
                    "could not read " + topic + " for a dry run", e);
        }
    }

    /**
     * Creates the replay connector, unless an earlier request with the same {@code idempotencyKey} did (then answers
     * that replay). @throws MonitorException 400 naming a bad field or setting, 409 naming a replay of {@code topic}
     * still starting or running, 422 when the key was used for another request
     */
    public Started start(String topic, Map<String, String> requested, Optional<String> idempotencyKey,
                  Optional<String> authorization) {
        String id = ReplayIds.forRequest(topic, idempotencyKey);
        Map<String, String> settings = new LinkedHashMap<>(requested);
        settings.putAll(connectionSettings());
        settings.putAll(destinations.settings());
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, topic);
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, id);
        OffsetSelection selection;
        try {
            ReplayConfig config = new ReplayConfig(settings);
            selection = OffsetSelection.of(config);
            if (config.problemsForWriting().containsKey(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG)) {
                throw MonitorException.badRequest("this worker allows no destination that a dead letter's headers"
                        + " name (" + MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG + " is empty), and the"
                        + " destination is '" + config.destination() + "': name one destination topic, or ask for"
                        + " the worker setting " + MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG + " (a dry run shows"
                        + " where the dead letters would go)");
            }
            config.requireWritable();
        } catch (ConfigException e) {
            throw MonitorException.badRequest(e.getMessage());
        }
        Map<String, String> connector = new LinkedHashMap<>();
        connector.put("connector.class", CONNECTOR_CLASS);
        connector.put("tasks.max", "1");
        connector.putAll(settings);
        synchronized (starting) { // one check-then-create at a time on this worker; POST /connectors settles the rest
            if (idempotencyKey.isPresent()) {
                Optional<Started> earlier = earlier(topic, id, connector, authorization);
                if (earlier.isPresent()) {
                    return earlier.get();
                }
            }
            refuseOverlap(topic, selection, authorization);
            refuseRunningOverlap(topic, settings);
            WorkerRestClient.Answer created = worker.createConnector(id, connector, authorization);
            if (created.status() == 409 && idempotencyKey.isPresent()) {
                Optional<Started> earlier = earlier(topic, id, connector, authorization);
                if (earlier.isPresent()) {
                    return earlier.get();
                }
            }
            WorkerRestClient.requireOk(created, "create the replay connector " + id);
            return new Started(id, true);
        }
    }

    /** The replay an earlier request with the same key started, if any. */
    private Optional<Started> earlier(String topic, String id, Map<String, String> connector,
                                      Optional<String> authorization) {
        Optional<Map<String, String>> existing = worker.connectorConfig(id, authorization);
        if (existing.isPresent()) {
            if (!isReplayOf(topic, existing) || !replaySettings(existing.get()).equals(replaySettings(connector))) {
                throw MonitorException.unprocessable("this " + ReplayIds.IDEMPOTENCY_KEY_HEADER + " was used for"
                        + " another request (replay " + id + "): send a new key for a new replay");
            }
            return Optional.of(new Started(id, false));
        }
        return latest(id).filter(p -> p.dlqTopic().equals(topic)).map(p -> new Started(id, false));
    }

    /**
     * @throws MonitorException 409 naming the first replay connector of {@code topic} still starting or running on
     *                          the topic as it is now ({@link OverlapRule}) whose offset filters select a position
     *                          {@code selection} selects too
     */
    private void refuseOverlap(String topic, OffsetSelection selection, Optional<String> authorization) {
        Map<String, Optional<Uuid>> topicIdNow = new HashMap<>(); // asked once, if a replay RUNNING overlaps at all
        worker.connectorConfigs(authorization).forEach((name, config) -> {
            if (isReplayOf(topic, Optional.of(config)) && overlaps(selection, config)) {
                OverlapRule.blockingState(latest(name), () -> topicIdNow.computeIfAbsent(topic, this::topicId))
                        .ifPresent(state -> {
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
    private void refuseRunningOverlap(String topic, Map<String, String> settings) {
        Map<String, String> withSecrets = new LinkedHashMap<>(settings);
        withSecrets.putAll(connectionSettingsWithSecrets());
        try {
            ReplayEngine.refuseOverlap(new ReplayConfig(withSecrets));
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

    /** The replay's progress and counts. @throws MonitorException 404 when no replay of {@code topic} has this id */
    public Map<String, Object> progress(String topic, String id, Optional<String> authorization) {
        ReplayIds.check(id);
        Optional<ReplayProgress> progress = latest(id);
        if (progress.isPresent() && progress.get().dlqTopic().equals(topic)) {
            return ReplayView.of(progress.get());
        }
        if (progress.isEmpty() && isReplayOf(topic, worker.connectorConfig(id, authorization))) {
            return ReplayView.starting(id, topic);
        }
        throw MonitorException.notFound("no replay " + id + " of " + topic);
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
        Optional<Map<String, String>> connector = worker.connectorConfig(id, authorization);
        boolean known = connector.isPresent() ? isReplayOf(topic, connector)
                : latest(id).filter(p -> p.dlqTopic().equals(topic)).isPresent();
        if (!known) {
            throw MonitorException.notFound("no replay " + id + " of " + topic);
        }
        WorkerRestClient.Answer deleted = worker.deleteConnector(id, authorization);
        if (!(deleted.status() == 404 && connector.isEmpty())) {
            WorkerRestClient.requireOk(deleted, "delete the replay connector " + id);
        }
        Map<String, String> settings = new LinkedHashMap<>(connectionSettingsWithSecrets());
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, topic);
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, id);
        settings.put(ReplayConfig.PROGRESS_TOPIC_CONFIG, ReplayConfig.PROGRESS_TOPIC_DEFAULT);
        settings.putAll(destinations.settings());
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

    private Optional<ReplayProgress> latest(String id) {
        try {
            return withReader(r -> r.latest(id));
        } catch (KafkaException e) {
            throw MonitorException.unavailable("the replays' progress topic could not be read; retry later",
                    "could not read the replays' progress topic", e);
        }
    }

    /** The id {@code topic} has now; empty when it does not exist. */
    private Optional<Uuid> topicId(String topic) {
        try {
            return withReader(r -> r.topicId(topic));
        } catch (KafkaException e) {
            throw MonitorException.unavailable(topic + " could not be described; retry later",
                    "could not describe " + topic, e);
        }
    }

    /** Calls the one progress reader (not thread-safe) under this object's lock. */
    private synchronized <T> T withReader(Function<ReplayProgressReader, T> call) {
        if (reader == null) {
            reader = new ReplayProgressReader(clientConfigs, ReplayConfig.PROGRESS_TOPIC_DEFAULT, timeout);
        }
        return call.apply(reader);
    }

    /** Whether {@code connector} is a replay of {@code topic} keeping its progress where the monitor reads it. */
    private static boolean isReplayOf(String topic, Optional<Map<String, String>> connector) {
        return connector.filter(c -> CONNECTOR_CLASS.equals(c.get("connector.class"))
                && topic.equals(c.get(ReplayConfig.DLQ_TOPIC_CONFIG))
                && Objects.equals(ReplayConfig.PROGRESS_TOPIC_DEFAULT, c.getOrDefault(
                        ReplayConfig.PROGRESS_TOPIC_CONFIG, ReplayConfig.PROGRESS_TOPIC_DEFAULT))).isPresent();
    }

    /** What a request decided in a replay connector's config: its {@code replay.*} and DLQ settings. */
    private static Map<String, String> replaySettings(Map<String, String> connector) {
        Map<String, String> decided = new TreeMap<>();
        connector.forEach((key, value) -> {
            if (key.startsWith("replay.") || key.equals(ReplayConfig.DLQ_TOPIC_CONFIG)) {
                decided.put(key, value);
            }
        });
        return decided;
    }

    /**
     * The worker's client settings that a connector config may hold ({@link ReplayClientSettings}: never one of type
     * PASSWORD). @throws MonitorException 501 when the worker's clients need a withheld one to connect
     */
    private Map<String, String> connectionSettings() {
        ReplayClientSettings settings = ReplayClientSettings.of(clientConfigs);
        if (!settings.needed().isEmpty()) {
            throw MonitorException.unsupported("this worker reaches Kafka with secret settings ("
                    + settings.needed() + "), which a replay connector created here would show to anyone who can"
                    + " read connector configs; create " + CONNECTOR_CLASS + " yourself, with the secrets behind a"
                    + " config provider");
        }
        return settings.copied();
    }

    /** Every client setting of the worker, secrets included: for the monitor's own clients, never a config. */
    private Map<String, String> connectionSettingsWithSecrets() {
        Map<String, String> settings = new LinkedHashMap<>();
        clientConfigs.forEach((key, value) -> {
            if (value != null) {
                settings.put(key, value instanceof Password password ? password.value() : value.toString());
            }
        });
        return settings;
    }

    @Override
    public synchronized void close() {
        if (reader != null) {
            reader.close();
        }
    }
}
