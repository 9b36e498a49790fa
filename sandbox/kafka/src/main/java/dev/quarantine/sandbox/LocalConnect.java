package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A real Kafka Connect worker in distributed mode, started as its own JVM with Kafka's jars on its classpath and
 * plugins only through {@code plugin.path}, the way users install them; its REST API listens on 127.0.0.1.
 *
 * <p>The worker classpath is given explicitly (for example the file {@code maven-dependency-plugin:build-classpath}
 * writes for {@code connect-runtime}), so the classes of the JVM that starts it never leak into the worker. It can be
 * killed with SIGKILL and started again on the same port with the same worker config, as after a crash. Its parts:
 * {@link WorkerConfig} (worker.properties), {@link WorkerClasspath}, {@link ChildJvm} (the process, shared with
 * {@link LocalKafka}) and {@link ConnectRest} (the REST client, {@link #rest()}).
 *
 * <pre>{@code
 * try (LocalConnect connect = LocalConnect.create(kafka, pluginPath, LocalConnect.readClasspath(file)).start()) {
 *     connect.createConnector("copy", Map.of("connector.class", "...", "topics", "orders", ...));
 *     connect.awaitRunning("copy", 1, Duration.ofSeconds(60));
 * }
 * }</pre>
 */
public final class LocalConnect implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final LocalKafka kafka;
    private final Path pluginPath;
    private final List<Path> classpath;
    private final Map<String, String> overrides;
    private final String id = "sandbox-connect-" + UUID.randomUUID().toString().substring(0, 8);
    private final int restPort = FreePorts.next();
    private final List<String> jvmOptions = new ArrayList<>();
    private ConnectRest rest = ConnectRest.at(restUrl());
    private ChildJvm child;

    private LocalConnect(LocalKafka kafka, Path pluginPath, List<Path> classpath, Map<String, String> overrides) {
        this.kafka = kafka;
        this.pluginPath = pluginPath;
        this.classpath = List.copyOf(classpath);
        this.overrides = Map.copyOf(overrides);
    }

    /**
     * A worker on {@code kafka} with the sandbox defaults ({@link WorkerConfig}), any of which {@code overrides} may
     * replace.
     *
     * @param pluginPath the worker's plugin.path (a folder holding plugin folders or archives)
     * @param classpath  the worker's classpath: connect-runtime and its dependencies, and nothing of the plugins
     */
    public static LocalConnect create(LocalKafka kafka, Path pluginPath, List<Path> classpath,
                                      Map<String, String> overrides) {
        return new LocalConnect(kafka, pluginPath, classpath, overrides);
    }

    public static LocalConnect create(LocalKafka kafka, Path pluginPath, List<Path> classpath) {
        return create(kafka, pluginPath, classpath, Map.of());
    }

    /** Reads a classpath file as maven-dependency-plugin's build-classpath writes it. */
    public static List<Path> readClasspath(Path file) {
        return WorkerClasspath.read(file);
    }

    /** Adds JVM options of the worker (for example {@code -Djava.security.auth.login.config=...}); before start. */
    public LocalConnect withJvmOptions(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    /**
     * Makes every request of {@link #rest()} (the readiness check included) carry HTTP basic credentials, for a worker
     * whose REST API requires them (Kafka's BasicAuthSecurityRestExtension).
     */
    public LocalConnect withBasicAuth(String user, String password) {
        rest = rest.withAuthorization(ConnectRest.basicAuth(user, password));
        return this;
    }

    /**
     * Starts the worker JVM (again, after a kill or stop) and waits until its REST API answers; fails when what
     * answered is another process that took the port meanwhile (a server of another test run), not this worker.
     */
    public synchronized LocalConnect start() {
        if (child != null && child.isAlive()) {
            return this;
        }
        if (child == null) {
            child = ChildJvm.inTempDir("the Connect worker " + id, "quarantine-connect-", "worker.log");
            child.writeProperties("worker.properties", WorkerConfig.properties(kafka, id, restPort, pluginPath,
                    overrides));
        }
        try {
            child.launch(command());
            awaitReady();
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Kills the worker with SIGKILL (kill -9), as in a crash, and waits until it is gone. */
    public synchronized void kill() {
        if (child != null) {
            child.kill();
        }
    }

    /** Stops the worker with SIGSTOP: it holds its sockets but answers nothing (no heartbeats) until resumed. */
    public synchronized void pause() {
        child.pause();
    }

    /** Resumes a worker stopped with {@link #pause()} (SIGCONT). */
    public synchronized void resume() {
        child.resume();
    }

    /** Kills the worker (kill -9) if it runs, and starts it again with the same config and port. */
    public LocalConnect restart() {
        kill();
        return start();
    }

    /**
     * Stops the worker the way an operator does (SIGTERM: Connect's shutdown hook stops the herder and the REST
     * server and closes its extensions), and waits until it has exited. It can be started again.
     */
    public synchronized void stop() {
        if (child != null) {
            child.stop(Duration.ofSeconds(60));
        }
    }

    /** Kills the worker and deletes its directory (kept when the system property {@code sandbox.keep} is true). */
    @Override
    public synchronized void close() {
        if (child != null) {
            child.close();
            child = null;
        }
    }

    /** The worker's process id, for signals. */
    public long pid() {
        return child.pid();
    }

    public boolean isAlive() {
        return child != null && child.isAlive();
    }

    /** {@code http://127.0.0.1:<port>} of the worker's REST API. */
    public String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    /** The client of the worker's REST API, with the credentials of {@link #withBasicAuth} if any. */
    public ConnectRest rest() {
        return rest;
    }

    /** The worker's log (stdout and stderr of every start). */
    public Path logFile() {
        return child.log();
    }

    /** The lines of {@link #logFile()} so far. */
    public List<String> logLines() {
        try {
            return Files.readAllLines(logFile(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the worker's log " + logFile(), e);
        }
    }

    /** {@link ConnectRest#createConnector}. */
    public JsonNode createConnector(String name, Map<String, String> config) {
        return rest.createConnector(name, config);
    }

    /** {@link ConnectRest#validate}. */
    public JsonNode validate(String pluginClass, Map<String, String> config) {
        return rest.validate(pluginClass, config);
    }

    /** {@link ConnectRest#status}. */
    public JsonNode status(String name) {
        return rest.status(name);
    }

    /** {@link ConnectRest#deleteConnector}. */
    public void deleteConnector(String name) {
        rest.deleteConnector(name);
    }

    /** {@link ConnectRest#pauseConnector}. */
    public void pauseConnector(String name) {
        rest.pauseConnector(name);
    }

    /** {@link ConnectRest#restartConnector}. */
    public void restartConnector(String name) {
        rest.restartConnector(name);
    }

    /** The JSON body of a GET of the REST API answered 200. */
    public JsonNode get(String path) {
        return rest.getJson(path);
    }

    /** Waits until the connector and {@code tasks} tasks are RUNNING; fails with the last status seen. */
    public void awaitRunning(String name, int tasks, Duration timeout) {
        ConnectorStates.awaitRunning(rest, name, tasks, timeout);
    }

    /** Waits until a task of the connector is FAILED; returns its status (state, trace). */
    public JsonNode awaitFailedTask(String name, Duration timeout) {
        return ConnectorStates.awaitFailedTask(rest, name, timeout);
    }

    /** Whether the status shows the connector and exactly {@code tasks} tasks RUNNING. */
    public static boolean isRunning(JsonNode status, int tasks) {
        return ConnectorStates.isRunning(status, tasks);
    }

    /** {@link ConnectRest#validationErrors}. */
    public static Map<String, List<String>> validationErrors(JsonNode validation) {
        return ConnectRest.validationErrors(validation);
    }

    private List<String> command() {
        List<String> command = ChildJvm.javaCommand("-Xms128m", "-Xmx768m",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=" + System.getProperty("sandbox.connect.log", "warn"),
                "-Dorg.slf4j.simpleLogger.log.dev.quarantine=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true");
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", WorkerClasspath.of(classpath), ConnectWorkerMain.class.getName(),
                child.workDir().resolve("worker.properties").toString()));
        return command;
    }

    private void awaitReady() {
        try {
            Await.until("the Connect worker answering on " + restUrl(), START_TIMEOUT, () -> {
                child.requireAlive("starting");
                return rest.answers();
            });
            ProcSockets.requireOwnListener("the Connect worker " + id, child.pid(), restPort);
            child.answering();
        } catch (AssertionError e) {
            throw child.failure(e.getMessage());
        }
    }
}
