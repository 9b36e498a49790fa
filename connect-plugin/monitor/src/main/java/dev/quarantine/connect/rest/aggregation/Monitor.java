package dev.quarantine.connect.rest.aggregation;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.streams.query.StateStoreFailException;
import dev.quarantine.streams.query.StateStoreMigratedException;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;
import dev.quarantine.connect.rest.discovery.TopicDiscovery;
import dev.quarantine.connect.rest.WorkerSettings;
import dev.quarantine.connect.rest.http.LogText;

/**
 * The dead-letter monitor of one worker: finds the topics to monitor every discovery interval, runs the Streams
 * aggregation over them (a new run when they change or the run failed), and turns a classified store error into the
 * answer to give. Starting never blocks the worker, and nothing here throws into it: while Kafka is unreachable the
 * monitor answers 503 and keeps trying. A round that fails with anything at all (a linkage error from a kafka-streams
 * that does not fit the worker included) is logged at ERROR once, with its cause, and answered 503 with what failed
 * until a run is running: a scheduled task that threw would never run again, and the monitor would say nothing. A run
 * whose stream thread met an Error (it stops: {@link MonitorStreams}) is such a failure too: the Error is logged and
 * answered the same way, and the next round starts a new run.
 */
public final class Monitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Monitor.class);

    private final MonitorConfig config;
    private final WorkerSettings worker;
    private final TopicDiscovery discovery;
    private final ScheduledExecutorService scheduler;
    private volatile MonitoredTopics topics;
    private volatile MonitorStreams run;
    private volatile boolean closed;
    private volatile String failure;
    private String loggedFailure;

    public Monitor(MonitorConfig config, WorkerSettings worker, TopicDiscovery discovery) {
        this.config = config;
        this.worker = worker;
        this.discovery = discovery;
        this.topics = new MonitoredTopics(Map.of(), config.topics(), config.topicsRegex());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "quarantine-dead-letter-monitor");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts discovery and the aggregation in the background. */
    public void start() {
        long interval = config.discoveryInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::refresh, 0, interval, TimeUnit.MILLISECONDS);
    }

    public MonitorConfig config() {
        return config;
    }

    public WorkerSettings worker() {
        return worker;
    }

    /** The current run of the aggregation. @throws MonitorException 503 while there is none */
    public MonitorStreams current() {
        MonitorStreams current = run;
        String failed = failure;
        if ((current == null || !current.isRunning()) && failed != null && !closed) {
            throw MonitorException.notRunning(failed);
        }
        if (current == null || closed) {
            throw MonitorException.retryable("the dead-letter monitor is " + (closed ? "stopping" : "starting"), null);
        }
        return current;
    }

    /** The answer for a classified store error met while reading {@code from}. */
    public MonitorException answerFor(MonitorStreams from, InvalidStateStoreException error) {
        if (error instanceof StateStoreMigratedException migrated) {
            return migrated.owner().map(owner -> MonitorException.migrated("the data moved to "
                    + worker.url(owner), error)).orElseGet(() -> MonitorException.retryable("the data is moving"
                    + " between workers; no worker holds it yet", error));
        }
        if (error instanceof StateStoreFailException && (from != run || closed)) {
            return MonitorException.retryable("the dead-letter aggregation is restarting", error);
        }
        if (error instanceof StateStoreFailException) {
            return MonitorException.fatal("the dead-letter aggregation failed", error);
        }
        return MonitorException.retryable("the dead-letter aggregation is not ready: " + error.getMessage(), error);
    }

    /** One discovery round; runs on the monitor's thread and never throws (see the class comment). */
    void refresh() {
        if (closed) {
            return;
        }
        try {
            round();
        } catch (Throwable e) {
            failed("could not start", e);
        }
    }

    private void round() {
        discover();
        MonitorStreams current = run;
        if (current != null && current.topics().subscribesSame(topics) && !current.hasFailed()) {
            if (current.isRunning()) {
                recovered();
            }
            return;
        }
        Optional<Throwable> stoppedBy = current == null ? Optional.empty() : current.stoppedBy();
        if (stoppedBy.isPresent()) {
            run = null;
            current.close();
            failed("stopped", stoppedBy.get()); // the next round starts a new run
            return;
        }
        if (current != null) {
            log.info("Dead-letter monitor: restarting the aggregation ({})", current.hasFailed()
                    ? "it stopped: " + current.streams().state() : "now reading " + LogText.escape(topics));
            run = null;
            current.close();
        } else {
            log.info("Dead-letter monitor: reading {}", LogText.escape(topics));
        }
        run = MonitorStreams.start(config, worker, topics, () -> this.topics);
    }

    private void discover() {
        try {
            topics = discovery.discover();
        } catch (RuntimeException e) {
            log.warn("Could not read the connector configs for dead-letter topics; monitoring {} meanwhile: {}",
                    LogText.escape(topics), LogText.escape(e));
        }
    }

    /**
     * Logs a failure once (again only when it changes) and makes every answer say what failed until a run is running.
     *
     * @param what what the aggregation did: "could not start", "stopped"
     */
    private void failed(String what, Throwable error) {
        failure = "the dead-letter aggregation " + what + " (" + error.getClass().getName() + "); the worker log"
                + " has the details; retrying every " + config.discoveryInterval().toSeconds() + " s";
        if (error.toString().equals(loggedFailure)) {
            log.debug("Dead-letter monitor: still failing: {}", LogText.escape(error));
            return;
        }
        loggedFailure = error.toString();
        log.error("Dead-letter monitor: the aggregation {}; /dead-letters answers 503 until it runs; retrying every"
                + " {} ms", what, config.discoveryInterval().toMillis(), error);
    }

    private void recovered() {
        if (loggedFailure != null) {
            log.info("Dead-letter monitor: running again (after {})", LogText.escape(loggedFailure));
        }
        loggedFailure = null;
        failure = null;
    }

    /** How many dead letters this worker's aggregation has still to read; empty when caught up (or not running). */
    public java.util.OptionalLong recordsBehind() {
        MonitorStreams current = run;
        if (current == null) {
            return java.util.OptionalLong.empty();
        }
        try {
            return Backlog.recordsBehind(current.streams().metrics());
        } catch (RuntimeException e) {
            return java.util.OptionalLong.empty();
        }
    }

    public MonitoredTopics topics() {
        return topics;
    }

    @Override
    public void close() {
        closed = true;
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(MonitorStreams.CLOSE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        MonitorStreams current = run;
        run = null;
        if (current != null) {
            current.close();
        }
        discovery.close();
    }
}
