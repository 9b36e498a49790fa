package dev.quarantine.connect.rest.replays;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;

/**
 * Dry runs of replays asked of the monitor: the engine's own dry run (the same filters and destination rules, nothing
 * written, no connector), authorized as a start is, at most as many at once as {@link DryRunSlots} has.
 */
final class DryRuns {

    private final WorkerRestClient worker;
    private final ReplaySettings settings;
    private final Duration limit;
    private final DryRunSlots slots;

    DryRuns(WorkerRestClient worker, ReplaySettings settings, Duration limit, DryRunSlots slots) {
        this.worker = worker;
        this.settings = settings;
        this.limit = limit;
        this.slots = slots;
    }

    /** See {@link Replays#dryRun}. */
    Map<String, Object> run(String topic, Map<String, String> requested, Optional<String> authorization) {
        requireRightToStart(topic, authorization);
        return slots.run(() -> now(topic, requested));
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

    private Map<String, Object> now(String topic, Map<String, String> requested) {
        ReplayConfig config;
        try {
            config = new ReplayConfig(settings.forOwnEngine(topic,
                    "dry-run-" + ReplayIds.forRequest(topic, Optional.empty()), requested));
        } catch (ConfigException e) {
            throw MonitorException.badRequest(e.getMessage());
        }
        try {
            return ReplayView.of(topic, ReplayEngine.dryRun(config, limit));
        } catch (ConfigException e) {
            throw MonitorException.notFound("cannot read " + topic + ": " + e.getMessage());
        } catch (KafkaException e) {
            throw MonitorException.unavailable(topic + " could not be read for a dry run; retry later",
                    "could not read " + topic + " for a dry run", e);
        }
    }
}
