package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A real Kafka Connect worker in distributed mode, started as its own JVM with Kafka's jars on its classpath and
 * plugins only through {@code plugin.path}, the way users install them; its REST API listens on 127.0.0.1.
 *
 * <p>The worker classpath is given explicitly (for example the file {@code maven-dependency-plugin:build-classpath}
 * writes for {@code connect-runtime}), so the classes of the JVM that starts it never leak into the worker. It can be
 * killed with SIGKILL and started again on the same port with the same worker config, as after a crash.
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
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LocalKafka kafka;
    private final Path pluginPath;
    private final List<Path> classpath;
    private final Map<String, String> overrides;
    private final String id = "sandbox-connect-" + UUID.randomUUID().toString().substring(0, 8);
    private final int restPort = FreePorts.next();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<String> jvmOptions = new ArrayList<>();
    private String authorization;
    private Path workDir;
    private Process process;
    private Thread shutdownHook;
    private int starts;

    private LocalConnect(LocalKafka kafka, Path pluginPath, List<Path> classpath, Map<String, String> overrides) {
        this.kafka = kafka;
        this.pluginPath = pluginPath;
        this.classpath = List.copyOf(classpath);
        this.overrides = Map.copyOf(overrides);
    }

    /**
     * A worker on {@code kafka} with the sandbox defaults (ByteArrayConverter for keys, values and headers, fast
     * rebalances, {@code plugin.discovery=service_load}), any of which {@code overrides} may replace.
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

    /** Adds JVM options of the worker (for example {@code -Djava.security.auth.login.config=...}); before start. */
    public LocalConnect withJvmOptions(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    /**
     * Makes every request of this fixture (its readiness check included) carry HTTP basic credentials, for a worker
     * whose REST API requires them (Kafka's BasicAuthSecurityRestExtension).
     */
    public LocalConnect withBasicAuth(String user, String password) {
        authorization = basicAuth(user, password);
        return this;
    }

    /** The {@code Authorization} header value of HTTP basic authentication. */
    public static String basicAuth(String user, String password) {
        return "Basic " + java.util.Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Reads a classpath file as maven-dependency-plugin's build-classpath writes it. */
    public static List<Path> readClasspath(Path file) {
        try {
            String text = Files.readString(file).trim();
            List<Path> paths = new ArrayList<>();
            for (String entry : text.split(java.io.File.pathSeparator)) {
                if (!entry.isBlank()) {
                    paths.add(Path.of(entry.trim()));
                }
            }
            return paths;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the worker classpath file " + file, e);
        }
    }

    /** Starts the worker JVM and waits until its REST API answers and it has joined its group. */
    public synchronized LocalConnect start() {
        if (process != null && process.isAlive()) {
            return this;
        }
        try {
            if (workDir == null) {
                workDir = Files.createTempDirectory("quarantine-connect-");
                Files.writeString(workDir.resolve("worker.properties"), workerProperties());
            }
            starts++;
            process = new ProcessBuilder(command())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                    .start();
            if (shutdownHook == null) {
                shutdownHook = new Thread(this::destroy, "sandbox-connect-shutdown");
                Runtime.getRuntime().addShutdownHook(shutdownHook);
            }
            awaitReady();
            return this;
        } catch (IOException e) {
            destroy();
            throw new UncheckedIOException("could not start the local Connect worker", e);
        } catch (RuntimeException e) {
            destroy();
            throw e;
        }
    }

    /** Kills the worker with SIGKILL (kill -9), as in a crash, and waits until it is gone. */
    public synchronized void kill() {
        if (process != null) {
            ChildJvm.killNow(process, "the Connect worker");
        }
    }

    /** Stops the worker with SIGSTOP: it holds its sockets but answers nothing (no heartbeats) until resumed. */
    public synchronized void pause() {
        ChildJvm.signal(process, "STOP");
    }

    /** Resumes a worker stopped with {@link #pause()} (SIGCONT). */
    public synchronized void resume() {
        ChildJvm.signal(process, "CONT");
    }

    /** Kills the worker (kill -9) if it runs, and starts it again with the same config and port. */
    public LocalConnect restart() {
        kill();
        return start();
    }

    /** The worker's process id, for signals. */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** {@code http://127.0.0.1:<port>} of the worker's REST API. */
    public String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    /** The worker's log (stdout and stderr of every start). */
    public Path logFile() {
        return workDir.resolve("worker.log");
    }

    /** Creates or updates a connector ({@code PUT /connectors/{name}/config}); returns the worker's answer. */
    public JsonNode createConnector(String name, Map<String, String> config) {
        return send("PUT", "/connectors/" + encode(name) + "/config", config, 201, 200);
    }

    /**
     * Validates a connector config ({@code PUT /connector-plugins/{plugin}/config/validate}); the answer has
     * {@code error_count} and, per setting, {@code configs[].value.errors}.
     */
    public JsonNode validate(String pluginClass, Map<String, String> config) {
        return send("PUT", "/connector-plugins/" + encode(pluginClass) + "/config/validate", config, 200);
    }

    /** The errors the validate endpoint reports on each setting that has any. */
    public static Map<String, List<String>> validationErrors(JsonNode validation) {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (JsonNode config : validation.path("configs")) {
            JsonNode value = config.path("value");
            List<String> messages = new ArrayList<>();
            value.path("errors").forEach(e -> messages.add(e.asText()));
            if (!messages.isEmpty()) {
                errors.put(value.path("name").asText(), messages);
            }
        }
        return errors;
    }

    /** {@code GET /connectors/{name}/status}. */
    public JsonNode status(String name) {
        return send("GET", "/connectors/" + encode(name) + "/status", null, 200);
    }

    /** {@code DELETE /connectors/{name}}. */
    public void deleteConnector(String name) {
        send("DELETE", "/connectors/" + encode(name), null, 204, 200);
    }

    /** {@code PUT /connectors/{name}/pause}: its tasks stop consuming, and stay paused when they move. */
    public void pauseConnector(String name) {
        send("PUT", "/connectors/" + encode(name) + "/pause", null, 202, 204, 200);
    }

    /** {@code POST /connectors/{name}/restart?includeTasks=true}. */
    public void restartConnector(String name) {
        send("POST", "/connectors/" + encode(name) + "/restart?includeTasks=true", null, 202, 204, 200);
    }

    /** Any GET of the REST API. */
    public JsonNode get(String path) {
        return send("GET", path, null, 200);
    }

    /** Waits until the connector and {@code tasks} tasks are RUNNING; fails with the last status seen. */
    public void awaitRunning(String name, int tasks, Duration timeout) {
        JsonNode[] last = new JsonNode[1];
        await(timeout, () -> {
            last[0] = statusOrNull(name);
            return last[0] != null && isRunning(last[0], tasks);
        }, () -> "connector " + name + " with " + tasks + " RUNNING tasks; last status: " + last[0]);
    }

    /** Waits until a task of the connector is FAILED; returns its status (state, trace). */
    public JsonNode awaitFailedTask(String name, Duration timeout) {
        JsonNode[] failed = new JsonNode[1];
        JsonNode[] last = new JsonNode[1];
        await(timeout, () -> {
            last[0] = statusOrNull(name);
            if (last[0] != null) {
                for (JsonNode task : last[0].path("tasks")) {
                    if ("FAILED".equals(task.path("state").asText())) {
                        failed[0] = task;
                        return true;
                    }
                }
            }
            return false;
        }, () -> "a FAILED task of connector " + name + "; last status: " + last[0]);
        return failed[0];
    }

    /** Whether the status shows the connector and exactly {@code tasks} tasks RUNNING. */
    public static boolean isRunning(JsonNode status, int tasks) {
        if (!"RUNNING".equals(status.path("connector").path("state").asText())) {
            return false;
        }
        int running = 0;
        for (JsonNode task : status.path("tasks")) {
            if (!"RUNNING".equals(task.path("state").asText())) {
                return false;
            }
            running++;
        }
        return running == tasks;
    }

    /**
     * Stops the worker the way an operator does (SIGTERM: Connect's shutdown hook stops the herder and the REST
     * server and closes its extensions), and waits until it has exited. It can be started again.
     */
    public synchronized void stop() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the Connect worker " + process.pid() + " did not stop in 60 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while stopping the Connect worker", e);
            }
        }
    }

    /** Kills the worker and deletes its directory. */
    @Override
    public synchronized void close() {
        destroy();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook is running
            }
            shutdownHook = null;
        }
    }

    private JsonNode statusOrNull(String name) {
        try {
            return status(name);
        } catch (IllegalStateException e) {
            return null;
        }
    }

    private synchronized void destroy() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
        if (workDir != null && !Boolean.getBoolean("sandbox.keep")) {
            ChildJvm.deleteRecursively(workDir);
            workDir = null;
        }
    }

    private String workerProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("group.id", id);
        props.put("config.storage.topic", id + "-configs");
        props.put("offset.storage.topic", id + "-offsets");
        props.put("status.storage.topic", id + "-status");
        props.put("config.storage.replication.factor", "1");
        props.put("offset.storage.replication.factor", "1");
        props.put("offset.storage.partitions", "5");
        props.put("status.storage.replication.factor", "1");
        props.put("status.storage.partitions", "1");
        props.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        props.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        props.put("header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        props.put("listeners", "http://127.0.0.1:" + restPort);
        props.put("rest.advertised.host.name", "127.0.0.1");
        props.put("rest.advertised.port", String.valueOf(restPort));
        props.put("plugin.path", pluginPath.toAbsolutePath().toString());
        props.put("plugin.discovery", "service_load");
        props.put("offset.flush.interval.ms", "2000");
        props.put("scheduled.rebalance.max.delay.ms", "0");
        props.put("session.timeout.ms", "6000");
        props.put("heartbeat.interval.ms", "2000");
        props.put("consumer.session.timeout.ms", "6000");
        props.put("consumer.heartbeat.interval.ms", "2000");
        props.put("task.shutdown.graceful.timeout.ms", "5000");
        props.putAll(overrides);
        StringBuilder text = new StringBuilder();
        props.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        return text.toString();
    }

    private List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms128m");
        command.add("-Xmx768m");
        command.add("-Djava.net.preferIPv4Stack=true");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=" + System.getProperty("sandbox.connect.log", "warn"));
        command.add("-Dorg.slf4j.simpleLogger.log.dev.quarantine=info");
        command.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(workerClasspath());
        command.add(ConnectWorkerMain.class.getName());
        command.add(workDir.resolve("worker.properties").toString());
        return command;
    }

    /** The given classpath, plus this module's jar (for ConnectWorkerMain) and an slf4j binding if it has none. */
    private String workerClasspath() {
        List<String> entries = new ArrayList<>();
        classpath.forEach(p -> entries.add(p.toString()));
        entries.add(codeSource(ConnectWorkerMain.class));
        if (classpath.stream().noneMatch(p -> p.getFileName().toString().matches("(slf4j-simple|log4j-slf4j2-impl|logback-classic).*"))) {
            entries.add(codeSource(org.slf4j.simple.SimpleLogger.class));
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    private static String codeSource(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot locate the jar of " + type.getName(), e);
        }
    }

    private void awaitReady() {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Connect worker exited with code " + process.exitValue()
                        + " while starting; its log:\n" + ChildJvm.tail(logFile(), 60));
            }
            try {
                HttpRequest.Builder probe = HttpRequest.newBuilder(URI.create(restUrl() + "/connectors"))
                        .timeout(Duration.ofSeconds(5)).GET();
                if (authorization != null) {
                    probe.header("Authorization", authorization);
                }
                HttpResponse<String> response = http.send(probe.build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (ConnectException | java.net.http.HttpTimeoutException e) {
                // not listening yet
            } catch (IOException e) {
                // starting up
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the Connect worker", e);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("the Connect worker did not answer on " + restUrl() + " within "
                        + START_TIMEOUT.toSeconds() + " s; its log:\n" + ChildJvm.tail(logFile(), 60));
            }
            sleepQuietly(Duration.ofMillis(200));
        }
    }

    private JsonNode send(String method, String path, Object body, int... expected) {
        Instant deadline = Instant.now().plus(REQUEST_TIMEOUT);
        while (true) {
            try {
                HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(restUrl() + path))
                        .timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json")
                        .header("Accept", "application/json");
                if (authorization != null) {
                    request.header("Authorization", authorization);
                }
                request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                for (int code : expected) {
                    if (response.statusCode() == code) {
                        return response.body() == null || response.body().isBlank() ? JSON.nullNode()
                                : JSON.readTree(response.body());
                    }
                }
                // 409: a rebalance is in progress; the request is retried until the deadline
                if (response.statusCode() != 409 || Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException(method + " " + path + " answered " + response.statusCode()
                            + ": " + response.body());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(method + " " + path + " failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during " + method + " " + path, e);
            }
            sleepQuietly(Duration.ofMillis(250));
        }
    }

    /** {@link Await#until}, with {@code what} computed at the deadline. */
    public static void await(Duration timeout, BooleanSupplier condition, java.util.function.Supplier<String> what) {
        Await.value(what, timeout, () -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }

    private static void sleepQuietly(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
