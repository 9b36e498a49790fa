package dev.quarantine.connect.rest;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.apache.kafka.common.config.ConfigException;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayListener;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayProgressReader;

/**
 * Replays started, watched and cancelled from the monitor. A replay is a {@code DeadLetterReplayConnector} created
 * through this worker's own REST API with the caller's credentials, so it outlives the worker that started it; its
 * id is the connector's name and its {@code replay.id}. Its progress is read from the replay's progress topic.
 */
final class Replays implements AutoCloseable {

    /** The replay connector (another module of the plugin: named, never linked; PluginContractTest holds it). */
    static final String CONNECTOR_CLASS = "dev.quarantine.connect.replay.DeadLetterReplayConnector";
    static final String ID_PREFIX = "replay-";
    private static final Pattern ID = Pattern.compile("[a-zA-Z0-9._-]{1,200}");
    private static final Pattern SECRET = Pattern.compile(".*(password|jaas|secret|\\.key$|token).*");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final WorkerRestClient worker;
    private final Map<String, Object> clientConfigs;
    private final Duration timeout;
    private ReplayProgressReader reader;

    Replays(WorkerRestClient worker, Map<String, Object> clientConfigs, Duration timeout) {
        this.worker = worker;
        this.clientConfigs = Map.copyOf(clientConfigs);
        this.timeout = timeout;
    }

    /** Creates the replay connector; answers its id. @throws MonitorException 400 naming a bad field or setting */
    String start(String topic, Map<String, String> requested, Optional<String> authorization) {
        String id = ID_PREFIX + HexFormat.of().formatHex(RANDOM.generateSeed(6));
        Map<String, String> settings = new LinkedHashMap<>(requested);
        settings.putAll(connectionSettings());
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, topic);
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, id);
        try {
            new ReplayConfig(settings);
        } catch (ConfigException e) {
            throw MonitorException.badRequest(e.getMessage());
        }
        Map<String, String> connector = new LinkedHashMap<>();
        connector.put("connector.class", CONNECTOR_CLASS);
        connector.put("tasks.max", "1");
        connector.putAll(settings);
        WorkerRestClient.requireOk(worker.putConnectorConfig(id, connector, authorization),
                "create the replay connector " + id);
        return id;
    }

    /** The replay's progress and counts. @throws MonitorException 404 when no replay of {@code topic} has this id */
    Map<String, Object> progress(String topic, String id, Optional<String> authorization) {
        checkId(id);
        Optional<ReplayProgress> progress = latest(id);
        if (progress.isPresent() && progress.get().dlqTopic().equals(topic)) {
            return view(progress.get());
        }
        if (progress.isEmpty() && isReplayOf(topic, worker.connectorConfig(id, authorization))) {
            Map<String, Object> starting = new LinkedHashMap<>();
            starting.put("id", id);
            starting.put("dlqTopic", topic);
            starting.put("state", "STARTING");
            return starting;
        }
        throw MonitorException.notFound("no replay " + id + " of " + topic);
    }

    /**
     * Deletes the replay's connector and commits its progress as CANCELLED: a new instance of the replay's producer
     * fences any instance still running, so nothing is written after the answer.
     */
    Map<String, Object> cancel(String topic, String id, Optional<String> authorization) {
        checkId(id);
        Optional<Map<String, String>> connector = worker.connectorConfig(id, authorization);
        Optional<ReplayProgress> progress = latest(id);
        boolean known = isReplayOf(topic, connector) || progress.filter(p -> p.dlqTopic().equals(topic)).isPresent();
        if (!known) {
            throw MonitorException.notFound("no replay " + id + " of " + topic);
        }
        if (connector.isPresent()) {
            WorkerRestClient.requireOk(worker.deleteConnector(id, authorization), "delete the replay connector " + id);
        }
        Map<String, String> settings = new LinkedHashMap<>(connectionSettingsWithSecrets());
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, topic);
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, id);
        connector.map(c -> c.get(ReplayConfig.PROGRESS_TOPIC_CONFIG)).ifPresent(
                t -> settings.put(ReplayConfig.PROGRESS_TOPIC_CONFIG, t));
        try (ReplayEngine engine = new ReplayEngine(new ReplayConfig(settings), ReplayEngine.Mode.WRITE,
                ReplayListener.NONE)) {
            engine.start();
            return view(engine.cancel());
        } catch (org.apache.kafka.common.KafkaException e) {
            throw MonitorException.retryable("could not commit the cancellation of replay " + id, e);
        }
    }

    private Optional<ReplayProgress> latest(String id) {
        try {
            synchronized (this) {
                if (reader == null) {
                    reader = new ReplayProgressReader(clientConfigs, ReplayConfig.PROGRESS_TOPIC_DEFAULT, timeout);
                }
                return reader.latest(id);
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            throw MonitorException.retryable("could not read the replays' progress topic", e);
        }
    }

    private static boolean isReplayOf(String topic, Optional<Map<String, String>> connector) {
        return connector.filter(c -> CONNECTOR_CLASS.equals(c.get("connector.class"))
                && topic.equals(c.get(ReplayConfig.DLQ_TOPIC_CONFIG))).isPresent();
    }

    /**
     * The worker's client settings that a connector config may hold: never a secret, which anyone allowed to read
     * connector configs would see. @throws MonitorException 501 when the worker's clients need one
     */
    private Map<String, String> connectionSettings() {
        TreeSet<String> secrets = new TreeSet<>();
        Map<String, String> settings = new LinkedHashMap<>();
        clientConfigs.forEach((key, value) -> {
            if (SECRET.matcher(key).matches()) {
                secrets.add(key);
            } else if (value != null) {
                settings.put(key, value.toString());
            }
        });
        if (!secrets.isEmpty()) {
            throw MonitorException.unsupported("this worker reaches Kafka with secret settings (" + secrets + "), which"
                    + " a replay connector created here would show to anyone who can read connector configs; create"
                    + " " + CONNECTOR_CLASS + " yourself, with the secrets behind a config provider");
        }
        return settings;
    }

    private Map<String, String> connectionSettingsWithSecrets() {
        Map<String, String> settings = new LinkedHashMap<>();
        clientConfigs.forEach((key, value) -> {
            if (value != null) {
                settings.put(key, value instanceof org.apache.kafka.common.config.types.Password password
                        ? password.value() : value.toString());
            }
        });
        return settings;
    }

    private static void checkId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw MonitorException.badRequest("a replay id is 1 to 200 of a-z, A-Z, 0-9, '.', '_' and '-'");
        }
    }

    static Map<String, Object> view(ReplayProgress progress) {
        ReplayCounts c = progress.counts();
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("replayed", c.replayed());
        counts.put("deadLetteredAgain", c.deadLetteredAgain());
        counts.put("parked", c.parked());
        counts.put("skippedByFilter", c.skippedByFilter());
        counts.put("skippedTruncated", c.skippedTruncated());
        counts.put("skippedUnroutable", c.skippedUnroutable());
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", progress.replayId());
        view.put("dlqTopic", progress.dlqTopic());
        view.put("state", progress.state().name());
        view.put("counts", counts);
        view.put("offsetsRead", progress.offsetsRead());
        view.put("offsetsInRange", progress.offsetsInRange());
        view.put("startedAt", progress.startedAt().toString());
        view.put("updatedAt", progress.updatedAt().toString());
        return view;
    }

    @Override
    public synchronized void close() {
        if (reader != null) {
            reader.close();
        }
    }
}
