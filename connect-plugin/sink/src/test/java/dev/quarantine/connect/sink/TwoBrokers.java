package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.connect.sink.cluster.WrittenProbe;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;

/**
 * Two sandbox brokers that skip a transaction's markers on demand, as {@code cluster.SkippedMarkersIT} stages it
 * (docs/design/sink-ownership.md 2.7.1, "When Kafka 4.4 skips markers"): node 1 hosts the controller and every
 * transaction coordinator (the transaction state topic is created before node 2 joins), node 2 the partitions a test
 * places there. {@link #whileLeaderless} kills node 2, ends a transaction (its markers for node 2's partitions are
 * skipped: those partitions have no leader when they are sent, and the coordinator completes the transaction all the
 * same), and brings node 2 back with the transaction's records still open there. Loopback only.
 *
 * <p>The test classes share one ({@link #shared}): each test stages its premise on topics of its own, and every kill
 * of node 2 ends with node 2 back.
 */
public final class TwoBrokers implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(90);

    /** The cluster the test classes of this JVM share, or null: one at a time ({@link #shared}). */
    private static TwoBrokers shared;

    final LocalKafka first;
    final LocalKafka second;
    final Admin admin;
    /** An admin client bootstrapped on node 2, which it asks while it is up: node 2's view of the metadata. */
    private final Admin secondAdmin;
    private final Set<TopicPartition> onSecond = new HashSet<>();
    private final Optional<Short> transactionVersion;
    /** False from a kill of node 2 until node 2 is back and leads its partitions again. */
    private boolean whole = true;

    private TwoBrokers(LocalKafka first, LocalKafka second, Optional<Short> transactionVersion) {
        this.first = first;
        this.second = second;
        this.admin = first.admin();
        this.secondAdmin = second.admin();
        this.transactionVersion = transactionVersion;
    }

    /**
     * The cluster of the test classes of this JVM at {@code transactionVersion}: the one the previous class used when
     * it has that version and node 2 came back from its last kill, else a new one (the previous one closed), so that a
     * class starts no broker the class before it already started. The last one is ended with the JVM (the sandbox's
     * shutdown hooks kill the brokers and delete their directories).
     */
    static synchronized TwoBrokers shared(Optional<Short> transactionVersion) {
        if (shared != null && !(shared.whole && shared.transactionVersion.equals(transactionVersion))) {
            shared.close();
            shared = null;
        }
        if (shared == null) {
            shared = start(transactionVersion);
        }
        return shared;
    }

    /** Both brokers started; the cluster at {@code transaction.version} {@code transactionVersion} when given. */
    static TwoBrokers start(Optional<Short> transactionVersion) {
        LocalKafka first = LocalKafka.create(Map.of("broker.session.timeout.ms", "3000"));
        transactionVersion.ifPresent(level -> first.withFeature(HangingTransactions.TRANSACTION_VERSION, level));
        first.start();
        try {
            warmUp(first); // the transaction state topic lands on the only broker there is: every coordinator on node 1
            LocalKafka second = first.joiningBroker(Map.of("broker.heartbeat.interval.ms", "500")).start();
            return new TwoBrokers(first, second, transactionVersion);
        } catch (RuntimeException e) {
            first.close();
            throw e;
        }
    }

    private static void warmUp(LocalKafka kafka) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "two-brokers-warm-up");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
        }
    }

    /**
     * The fixture's topics, one partition each but the progress topic's two, placed on the nodes given: the target
     * topic on {@code targetNode}, progress partition 0 on {@code progressNode}, the dead-letter topic and progress
     * partition 1 (claims) on node 1.
     */
    void createTopics(TaskFixture fixture, int targetNode, int progressNode) {
        createTopics(fixture, List.of(targetNode), progressNode);
    }

    /** As {@link #createTopics(TaskFixture, int, int)}, target partition {@code i} on {@code targetNodes.get(i)}. */
    void createTopics(TaskFixture fixture, List<Integer> targetNodes, int progressNode) {
        createTopic(fixture.target, targetNodes, Map.of());
        createTopic(fixture.dlq, List.of(1), Map.of());
        createTopic(fixture.progress, List.of(progressNode, 1), Map.of("cleanup.policy", "compact"));
    }

    /** A topic whose partition {@code i} has its one replica on node {@code nodes.get(i)}. */
    void createTopic(String topic, List<Integer> nodes, Map<String, String> configs) {
        Map<Integer, List<Integer>> assignment = new HashMap<>();
        for (int partition = 0; partition < nodes.size(); partition++) {
            assignment.put(partition, List.of(nodes.get(partition)));
            if (nodes.get(partition) == second.nodeId()) {
                onSecond.add(new TopicPartition(topic, partition));
            }
        }
        try {
            admin.createTopics(List.of(new NewTopic(topic, assignment).configs(configs))).all()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not create " + topic + " on nodes " + nodes, e);
        }
        awaitKnown(topic, nodes.size());
        awaitLeaders();
    }

    /**
     * Waits until both nodes answer for {@code topic} with a leader for each of its {@code partitions}: a node whose
     * metadata lags behind (node 2 right after it joined) tells a task's admin client that the topic does not exist,
     * which stops the task as if its progress topic had been deleted.
     */
    private void awaitKnown(String topic, int partitions) {
        for (Admin asked : List.of(admin, secondAdmin)) {
            Await.until("topic " + topic + " with " + partitions + " led partitions in the metadata of each node",
                    TIMEOUT, () -> {
                        try {
                            TopicDescription description = asked.describeTopics(List.of(topic)).allTopicNames()
                                    .get(10, TimeUnit.SECONDS).get(topic);
                            return description.partitions().size() == partitions && description.partitions()
                                    .stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
                        } catch (Exception notYet) {
                            return false;
                        }
                    });
        }
    }

    /**
     * Runs {@code endTransaction} with node 2 killed, then restarts node 2 and waits until each of its partitions has
     * its leader back: the markers the transaction's end sent while node 2's partitions were leaderless are skipped
     * there, so its records stay open on them.
     */
    void whileLeaderless(Runnable endTransaction) {
        whole = false;
        second.kill();
        try {
            awaitFenced(admin, second.nodeId(), TIMEOUT);
            endTransaction.run();
        } finally {
            second.restart();
            awaitLeaders();
            whole = true;
        }
    }

    /** Waits until the coordinator of {@code transactionalId} reports its last transaction {@code state}. */
    void awaitCompleted(String transactionalId, TransactionState state) {
        List<String> seen = new ArrayList<>(List.of("nothing yet"));
        Await.until(() -> "the coordinator of " + transactionalId + " to complete its transaction in " + state
                + " (last seen: " + seen.get(0) + ")", TIMEOUT, () -> {
                    try {
                        TransactionState described = admin.describeTransactions(List.of(transactionalId))
                                .description(transactionalId).get(10, TimeUnit.SECONDS).state();
                        seen.set(0, described.toString());
                        return described == state;
                    } catch (Exception stillLoading) {
                        seen.set(0, stillLoading.toString());
                        return false;
                    }
                });
    }

    /** Where the open transaction on {@code partition} starts: empty when none is open there. */
    OptionalLong openFrom(TopicPartition partition) {
        try {
            return admin.describeProducers(List.of(partition)).partitionResult(partition).get(30, TimeUnit.SECONDS)
                    .activeProducers().stream().map(ProducerState::currentTransactionStartOffset)
                    .filter(OptionalLong::isPresent).findFirst().orElse(OptionalLong.empty());
        } catch (Exception e) {
            throw new IllegalStateException("could not describe the producers of " + partition, e);
        }
    }

    /**
     * What a {@code read_committed} reader finds at the first record of the transaction open on {@code partition}
     * ({@link WrittenProbe}); empty when no transaction is open there.
     */
    Optional<AtFirst> atOpenTransaction(TopicPartition partition) {
        OptionalLong from = openFrom(partition);
        if (from.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> configs = new HashMap<>();
        first.clientProps().forEach((k, v) -> configs.put((String) k, v));
        try (WrittenProbe probe = new WrittenProbe(configs, admin)) {
            Written line = new Written(from.getAsLong(), from.getAsLong() + 1, 0);
            return Optional.of(probe.look(Map.of(partition, line), Set.of(), TIMEOUT).get(partition).atFirst());
        }
    }

    /** Waits until node 2 leads each of its partitions (those of every test so far: one look at all of them). */
    private void awaitLeaders() {
        Set<TopicPartition> partitions = Set.copyOf(onSecond);
        Set<String> topics = new HashSet<>();
        partitions.forEach(partition -> topics.add(partition.topic()));
        Await.until(() -> "a leader on node " + second.nodeId() + " for each of " + partitions, TIMEOUT, () -> {
            try {
                Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames()
                        .get(10, TimeUnit.SECONDS);
                return partitions.stream().allMatch(partition -> ledBy(described.get(partition.topic()),
                        partition.partition(), second.nodeId()));
            } catch (Exception notYet) {
                return false;
            }
        });
    }

    /**
     * Waits until the controller has fenced node {@code nodeId} (killed: its session timed out), as node 1's metadata
     * shows it: from then on node 2's partitions have no leader there, so a transaction's markers for them are skipped
     * at once. Before, the coordinator's marker sender spins a core (Kafka 4.4's {@code InterBrokerSendThread}: a
     * refused connection fails the unsent request, whose handler queues the markers again and wakes the thread, whose
     * next poll finds the connection still failed) until the fence comes: 3 s of a core per kill, a fifth of the
     * brokers' CPU in this module's tests.
     */
    public static void awaitFenced(Admin admin, int nodeId, Duration timeout) {
        Await.until("node " + nodeId + " fenced by the controller", timeout, () -> {
            try {
                return admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream()
                        .noneMatch(node -> node.id() == nodeId);
            } catch (Exception notYet) {
                return false;
            }
        });
    }

    /** Waits until node {@code nodeId} leads {@code partition} again (after its broker restarted). */
    public static void awaitLeader(Admin admin, TopicPartition partition, int nodeId, Duration timeout) {
        Await.until("a leader on node " + nodeId + " for " + partition, timeout, () -> {
            try {
                TopicDescription description = admin.describeTopics(List.of(partition.topic())).allTopicNames()
                        .get(10, TimeUnit.SECONDS).get(partition.topic());
                return ledBy(description, partition.partition(), nodeId);
            } catch (Exception notYet) {
                return false;
            }
        });
    }

    private static boolean ledBy(TopicDescription description, int partition, int nodeId) {
        var leader = description.partitions().get(partition).leader();
        return leader != null && leader.id() == nodeId;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        secondAdmin.close(Duration.ofSeconds(5));
        second.close();
        first.close();
    }
}
