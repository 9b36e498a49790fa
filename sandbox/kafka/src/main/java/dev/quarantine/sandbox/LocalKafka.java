package dev.quarantine.sandbox;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node Apache Kafka broker in KRaft combined mode (broker and controller in one process), started
 * as a child JVM from Kafka's own Maven artifacts, listening on 127.0.0.1 only.
 *
 * <p>The broker runs on this JVM's classpath, or, when the system property {@value #BROKER_CLASSPATH_PROPERTY} names
 * a classpath file (as {@code maven-dependency-plugin:build-classpath} writes it; this module's build writes
 * {@code target/broker-classpath.txt}), on that one: so tests whose own classpath holds another kafka-clients
 * version (the compatibility tests) still get a Kafka 4.4 broker.
 *
 * <p>It starts in a few seconds and leaves nothing behind: {@link #close()} kills the process and deletes its data
 * directory, a JVM shutdown hook does the same, and the child exits by itself when its parent dies.
 */
public final class LocalKafka implements AutoCloseable {

    /** System property naming the broker's classpath file; unset: the broker runs on this JVM's classpath. */
    public static final String BROKER_CLASSPATH_PROPERTY = "sandbox.broker.classpath";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, String> overrides;
    private final int brokerPort = FreePorts.next();
    private final int controllerPort = FreePorts.next();
    private final String clusterId = Uuid.randomUuid().toString();
    private Path dataDir;
    private Process process;
    private Thread shutdownHook;

    private LocalKafka(Map<String, String> overrides) {
        this.overrides = overrides;
    }

    /** A broker with the sandbox defaults (auto topic creation off, fast group joins, small internal topics). */
    public static LocalKafka create() {
        return create(Map.of());
    }

    /** A broker with the sandbox defaults, any of which {@code overrides} may replace. */
    public static LocalKafka create(Map<String, String> overrides) {
        return new LocalKafka(Map.copyOf(overrides));
    }

    /** Starts the broker and waits until it answers. */
    public synchronized LocalKafka start() {
        if (process != null) {
            return this;
        }
        try {
            dataDir = Files.createTempDirectory("quarantine-kafka-");
            Files.writeString(dataDir.resolve("server.properties"), serverProperties());
            shutdownHook = new Thread(this::destroy, "sandbox-kafka-shutdown");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            launch();
            return this;
        } catch (IOException e) {
            destroy();
            throw new UncheckedIOException("could not start the local Kafka broker", e);
        } catch (RuntimeException e) {
            destroy();
            throw e;
        }
    }

    /**
     * Kills the broker with SIGKILL (kill -9), as in a crash, keeping its data directory; {@link #restart()} starts
     * it again on the same data and ports.
     */
    public synchronized void kill() {
        if (process != null) {
            ChildJvm.killNow(process, "the local Kafka broker");
        }
    }

    /** Starts a killed broker again on the same data directory and ports, and waits until it answers. */
    public synchronized LocalKafka restart() {
        if (dataDir == null) {
            throw new IllegalStateException("the local Kafka broker was closed; start() a new one");
        }
        kill();
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException("could not restart the local Kafka broker", e);
        }
        return this;
    }

    /** Stops the broker with SIGSTOP: connections stay open but nothing answers, until {@link #resume()}. */
    public synchronized void pause() {
        ChildJvm.signal(process, "STOP");
    }

    /** Resumes a broker stopped with {@link #pause()} (SIGCONT). */
    public synchronized void resume() {
        ChildJvm.signal(process, "CONT");
    }

    /** {@code host:port} of the broker's PLAINTEXT listener on 127.0.0.1. */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /** Where the broker keeps its log segments and its own log file ({@code broker.log}). */
    public Path dataDir() {
        return dataDir;
    }

    /** A new admin client for this broker; the caller closes it. */
    public Admin admin() {
        return Admin.create(clientProps());
    }

    /** {@code bootstrap.servers} for this broker, to build client configs on. */
    public Properties clientProps() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return props;
    }

    /** Creates a topic with replication factor 1 and the given topic configs, and waits until it exists. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + name, e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not create topic " + name, e);
        }
    }

    /** Creates a topic with one partition and the broker's default topic configs. */
    public void createTopic(String name) {
        createTopic(name, 1, Map.of());
    }

    /** Kills the broker process and deletes its data directory. */
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
        if (dataDir != null) {
            ChildJvm.deleteRecursively(dataDir);
            dataDir = null;
        }
    }

    private void launch() throws IOException {
        Path config = dataDir.resolve("server.properties");
        process = new ProcessBuilder(command(config))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dataDir.resolve("broker.log").toFile()))
                .start();
        awaitReady();
    }

    private String serverProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", dataDir.resolve("logs").toString());
        props.put("auto.create.topics.enable", "false");
        props.put("num.partitions", "1");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "3");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "3");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));
        props.putAll(overrides);
        StringBuilder text = new StringBuilder();
        props.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        return text.toString();
    }

    private List<String> command(Path config) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms256m");
        command.add("-Xmx1g");
        command.add("-Djava.net.preferIPv4Stack=true");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-Dlog4j2.level=warn");
        command.add("-cp");
        command.add(brokerClasspath());
        command.add(BrokerMain.class.getName());
        command.add(config.toString());
        command.add(clusterId);
        return command;
    }

    private static String brokerClasspath() {
        String file = System.getProperty(BROKER_CLASSPATH_PROPERTY);
        if (file == null || file.isBlank()) {
            return System.getProperty("java.class.path");
        }
        try {
            String own = Path.of(BrokerMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
            return own + File.pathSeparator + Files.readString(Path.of(file)).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the broker classpath file " + file + " ("
                    + BROKER_CLASSPATH_PROPERTY + ")", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the sandbox classes", e);
        }
    }

    private void awaitReady() {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        Properties props = clientProps();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        try (Admin admin = Admin.create(props)) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the local Kafka broker exited with code " + process.exitValue()
                            + " while starting; its log:\n" + ChildJvm.tail(dataDir.resolve("broker.log"), 40));
                }
                try {
                    String answering = admin.describeCluster().clusterId().get();
                    if (!clusterId.equals(answering)) {
                        throw new IllegalStateException("another Kafka (cluster " + answering + ") answers on "
                                + bootstrapServers() + ", not the broker started here (cluster " + clusterId + ")");
                    }
                    if (!admin.describeCluster().nodes().get().isEmpty()) {
                        return;
                    }
                } catch (ExecutionException e) {
                    // not up yet
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the local Kafka broker", e);
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("the local Kafka broker did not answer on " + bootstrapServers()
                            + " within " + START_TIMEOUT.toSeconds() + " s; its log:\n"
                            + ChildJvm.tail(dataDir.resolve("broker.log"), 40));
                }
            }
        }
    }
}
