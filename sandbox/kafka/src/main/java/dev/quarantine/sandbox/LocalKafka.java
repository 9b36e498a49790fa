package dev.quarantine.sandbox;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node Apache Kafka broker in KRaft combined mode (broker and controller in one process), started
 * as a child JVM from Kafka's own Maven artifacts, listening on 127.0.0.1 only.
 *
 * <p>The broker runs on this JVM's jars, or, when the system property {@value #BROKER_CLASSPATH_PROPERTY} names
 * a classpath file (as {@code maven-dependency-plugin:build-classpath} writes it; this module's build writes
 * {@code target/broker-classpath.txt}), on that one: so tests whose own classpath holds another kafka-clients
 * version (the compatibility tests) still get a Kafka 4.4 broker.
 *
 * <p>It starts in a few seconds and leaves nothing behind: {@link #close()} kills the process and deletes its data
 * directory, a JVM shutdown hook does the same, and the child exits by itself when its parent dies (the process
 * lifecycle is {@link ChildJvm}'s, shared with {@link LocalConnect}).
 */
public final class LocalKafka implements AutoCloseable {

    /** System property naming the broker's classpath file; unset: the broker runs on this JVM's classpath. */
    public static final String BROKER_CLASSPATH_PROPERTY = "sandbox.broker.classpath";

    /**
     * How long a start waits for the broker: 180 s (a broker restarted after kill -9 recovers its logs first, which on a
     * loaded 2-core machine took over 60 s), or {@code sandbox.broker.start.timeout.seconds}. A broker process that
     * exits fails the wait at once.
     */
    private static final Duration START_TIMEOUT =
            Duration.ofSeconds(Long.getLong("sandbox.broker.start.timeout.seconds", 180));

    private final Map<String, String> overrides;
    private final Map<String, Short> features = new TreeMap<>();
    private final int brokerPort = FreePorts.next();
    private final int nodeId;
    private final int controllerPort;
    private final String clusterId;
    private int joined = 1;
    private ChildJvm child;
    private boolean closed;

    private LocalKafka(Map<String, String> overrides) {
        this(overrides, 1, FreePorts.next(), Uuid.randomUuid().toString());
    }

    private LocalKafka(Map<String, String> overrides, int nodeId, int controllerPort, String clusterId) {
        this.overrides = overrides;
        this.nodeId = nodeId;
        this.controllerPort = controllerPort;
        this.clusterId = clusterId;
    }

    /** A broker with the sandbox defaults (auto topic creation off, fast group joins, small internal topics). */
    public static LocalKafka create() {
        return create(Map.of());
    }

    /** A broker with the sandbox defaults, any of which {@code overrides} may replace. */
    public static LocalKafka create(Map<String, String> overrides) {
        return new LocalKafka(Map.copyOf(overrides));
    }

    /**
     * A second (third, ...) broker of this broker's cluster, not started: a broker-only node with the next node id
     * (2, 3, ...), joining the quorum of this node's controller, with the sandbox defaults and {@code overrides}.
     * Topics land on it when created with a replica assignment naming its {@link #nodeId()}, so a test can make a
     * partition leaderless (kill or pause this broker) while the controller, the transaction coordinator and the
     * group coordinator on the first node go on. The first node must run when it starts; close it before the first.
     */
    public synchronized LocalKafka joiningBroker(Map<String, String> overrides) {
        if (nodeId != 1) {
            throw new IllegalStateException("join the first node's quorum, not node " + nodeId + "'s");
        }
        return new LocalKafka(Map.copyOf(overrides), ++joined, controllerPort, clusterId);
    }

    /** This broker's {@code node.id}: 1 for the first node (broker and controller), 2 and up for joining brokers. */
    public int nodeId() {
        return nodeId;
    }

    /**
     * Formats the broker's storage with this finalized feature level, as {@code kafka-storage format --feature
     * name=level} does (for example {@code transaction.version} 1, a cluster without KIP-890's per-transaction epoch
     * bump; Kafka 4.4 formats new clusters at 2). Call before {@link #start()}.
     */
    public synchronized LocalKafka withFeature(String name, short level) {
        if (child != null) {
            throw new IllegalStateException("the broker's storage is formatted at its first start: set " + name
                    + " before start()");
        }
        features.put(name, level);
        return this;
    }

    /** Starts the broker and waits until it answers. */
    public synchronized LocalKafka start() {
        if (child != null) {
            return this;
        }
        child = ChildJvm.inTempDir(nodeId == 1 ? "the local Kafka broker" : "the local Kafka broker " + nodeId,
                "quarantine-kafka-", "broker.log");
        try {
            Path logs = child.workDir().resolve("logs");
            child.writeProperties("server.properties", nodeId == 1
                    ? BrokerConfig.properties(logs, brokerPort, controllerPort, overrides)
                    : BrokerConfig.brokerOnly(nodeId, logs, brokerPort, controllerPort, overrides));
            launch();
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Kills the broker with SIGKILL (kill -9), as in a crash, keeping its data directory; {@link #restart()} starts
     * it again on the same data and ports.
     */
    public synchronized void kill() {
        if (child != null) {
            child.kill();
        }
    }

    /** Starts a killed broker again on the same data directory and ports, and waits until it answers. */
    public synchronized LocalKafka restart() {
        if (child == null) {
            throw new IllegalStateException("the local Kafka broker was " + (closed ? "closed; start() a new one"
                    : "never started"));
        }
        kill();
        launch();
        return this;
    }

    /** Stops the broker with SIGSTOP: connections stay open but nothing answers, until {@link #resume()}. */
    public synchronized void pause() {
        child.pause();
    }

    /** Resumes a broker stopped with {@link #pause()} (SIGCONT). */
    public synchronized void resume() {
        child.resume();
    }

    /** Whether the broker's process runs (one stopped with {@link #pause()} does; one killed or gone does not). */
    public synchronized boolean isRunning() {
        return child != null && child.isAlive();
    }

    /** {@code host:port} of the broker's PLAINTEXT listener on 127.0.0.1. */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /** Where the broker keeps its log segments and its own log file ({@code broker.log}). */
    public Path dataDir() {
        return child == null ? null : child.workDir();
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

    /**
     * Creates a topic with replication factor 1 and the given topic configs, and waits until the broker's metadata
     * shows it with a leader for every partition: the controller has created it when createTopics returns, but a
     * client asking the broker at once (a connector's validation) could still be told it does not exist.
     */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all()
                    .get(30, TimeUnit.SECONDS);
            Await.until("topic " + name + " in the broker's metadata with " + partitions + " led partitions",
                    Duration.ofSeconds(30), () -> visible(admin, name, partitions));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + name, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not create topic " + name, e);
        }
    }

    private static boolean visible(Admin admin, String topic, int partitions) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return description.partitions().size() == partitions
                    && description.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
        } catch (ExecutionException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for topic " + topic, e);
        }
    }

    /** Creates a topic with one partition and the broker's default topic configs. */
    public void createTopic(String name) {
        createTopic(name, 1, Map.of());
    }

    /** Kills the broker process and deletes its data directory. */
    @Override
    public synchronized void close() {
        if (child != null) {
            child.close();
            child = null;
        }
        closed = true;
    }

    private void launch() {
        // a broker joining a running cluster must not pause to dump its class archive: its session would time out
        child.launch(command(child.workDir().resolve("server.properties")), nodeId == 1);
        awaitReady();
    }

    private List<String> command(Path config) {
        List<String> command = ChildJvm.javaCommand("-Xms256m", "-Xmx1g",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dlog4j2.level=warn");
        command.addAll(List.of("-cp", brokerClasspath(), BrokerMain.class.getName(), config.toString(), clusterId));
        features.forEach((name, level) -> command.add(name + "=" + level));
        return command;
    }

    /**
     * The sandbox's classes, then the classpath file's entries or this JVM's jars (its class directories, a test's
     * own classes, are no broker's business, and a classpath of jars only can have a class archive: {@link
     * ClassArchive}).
     */
    private static String brokerClasspath() {
        String own = WorkerClasspath.codeSource(BrokerMain.class);
        String file = System.getProperty(BROKER_CLASSPATH_PROPERTY);
        if (file == null || file.isBlank()) {
            List<String> entries = new ArrayList<>(List.of(own));
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                if (!entry.equals(own) && Files.isRegularFile(Path.of(entry))) {
                    entries.add(entry);
                }
            }
            return String.join(File.pathSeparator, entries);
        }
        try {
            return own + File.pathSeparator + Files.readString(Path.of(file)).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the broker classpath file " + file + " ("
                    + BROKER_CLASSPATH_PROPERTY + ")", e);
        }
    }

    private void awaitReady() {
        Properties props = clientProps();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        try (Admin admin = Admin.create(props)) {
            Await.until("the local Kafka broker answering on " + bootstrapServers(), START_TIMEOUT, () -> {
                child.requireAlive("starting");
                return answers(admin);
            });
            child.answering();
        } catch (AssertionError e) {
            throw child.failure(e.getMessage());
        }
    }

    /**
     * Whether the broker started here answers, naming itself among the cluster's nodes (a joining broker once it has
     * registered); fails if another cluster answers on its port.
     */
    private boolean answers(Admin admin) {
        try {
            String answering = admin.describeCluster().clusterId().get();
            if (!clusterId.equals(answering)) {
                throw new IllegalStateException("another Kafka (cluster " + answering + ") answers on "
                        + bootstrapServers() + ", not the broker started here (cluster " + clusterId + ")");
            }
            return admin.describeCluster().nodes().get().stream().anyMatch(node -> node.id() == nodeId);
        } catch (ExecutionException notUpYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the local Kafka broker", e);
        }
    }
}
