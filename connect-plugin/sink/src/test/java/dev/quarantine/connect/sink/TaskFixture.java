package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.props;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.cluster.TargetTopics;
import dev.quarantine.connect.sink.cluster.TopicIds;
import dev.quarantine.connect.sink.cluster.WrittenCheck;
import dev.quarantine.connect.sink.cluster.WrittenChecks;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.connect.sink.metrics.WorkerPluginMetrics;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.progress.SourceTopics;
import dev.quarantine.connect.sink.write.DeadLetters;
import dev.quarantine.connect.sink.write.RecordConverter;
import dev.quarantine.connect.sink.write.WriteSetup;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.txn.DeadLetterBreaker;

/**
 * The topics and tasks of one in-process task test on a real broker: source, target, dead-letter and progress topic
 * names of the test's own, the task config over them, and the tasks the test started, to stop after it. Registered
 * on the test class ({@code @RegisterExtension}), it stops them after each test itself.
 */
final class TaskFixture implements AfterEachCallback {

    final String source;
    final String target;
    final String dlq;
    final String progress;
    private final LocalKafka kafka;
    private final String connector;
    private final Map<String, String> classSettings;
    private final List<TransactionalKafkaSinkTask> tasks = new ArrayList<>();

    /** Topic names {@code <test>-<random>...}, connector {@code <test>-it}; the class's settings in every config. */
    TaskFixture(LocalKafka kafka, String test, String... classSettings) {
        this.kafka = kafka;
        this.source = test + "-" + UUID.randomUUID().toString().substring(0, 8);
        this.target = "copy." + source;
        this.dlq = source + ".dlq";
        this.progress = source + ".progress";
        this.connector = test + "-it";
        this.classSettings = props(classSettings);
    }

    /** The target topic with one partition, the dead-letter topic and the compacted progress topic (two partitions: progress and claims). */
    void createTopics() {
        createTopics(1, Map.of());
    }

    /** The topics of {@link #createTopics()}, with a target topic of the test's own partitions and configs. */
    void createTopics(int targetPartitions, Map<String, String> targetConfigs) {
        kafka.createTopic(target, targetPartitions, targetConfigs);
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(progress, 2, Map.of("cleanup.policy", "compact"));
    }

    /** A task config writing {@code source} to {@code target} over this test's topics; overrides win. */
    Map<String, String> config(String... overrides) {
        Map<String, String> config = props(
                "name", connector,
                "topics", source,
                "target.bootstrap.servers", kafka.bootstrapServers(),
                "target.topic.format", "copy.${topic}",
                "dlq.topic.name", dlq,
                "progress.topic.name", progress,
                "transactional.id.prefix", source);
        config.putAll(classSettings);
        config.putAll(props(overrides));
        return config;
    }

    /** A task started with {@link #config}{@code (overrides)}, stopped by {@link #stopTasks()} at the latest. */
    TransactionalKafkaSinkTask start(FakeSinkTaskContext context, String... overrides) {
        TransactionalKafkaSinkTask task = new TransactionalKafkaSinkTask();
        tasks.add(task);
        task.initialize(context);
        task.start(config(overrides));
        return task;
    }

    /** A task started as {@link #start} starts it, given {@code partition} as Connect assigns and opens it. */
    TransactionalKafkaSinkTask startAssigned(FakeSinkTaskContext context, TopicPartition partition,
                                             String... overrides) {
        context.assigned.add(partition);
        TransactionalKafkaSinkTask task = start(context, overrides);
        task.open(List.of(partition));
        return task;
    }

    /**
     * A task's handler over this test's topics ({@link #config}), as {@link TransactionalKafkaSinkTask#start} builds
     * it, but with its writers' producers from {@code producers} (null: the writer's own) and, when {@code hanging}
     * is given, that check instead of {@link HangingTransactions}; the caller closes it.
     */
    SinkTaskHandler handler(FakeSinkTaskContext context,
                            Function<Map<String, Object>, Producer<byte[], byte[]>> producers,
                            Optional<HangingTransactionCheck> hanging) {
        return handler(TransactionalSinkConfig.parse(config()), progress, Duration.ofSeconds(30), context, producers,
                hanging);
    }

    /**
     * A task's handler over this test's topics ({@link #config}{@code (overrides)}) whose writers' producers
     * {@code producers} builds: scripted producers, which leave no transactions on the broker for the checks to find.
     */
    SinkTaskHandler scriptedHandler(FakeSinkTaskContext context,
                                    Function<Map<String, Object>, Producer<byte[], byte[]>> producers,
                                    String... overrides) {
        return handler(TransactionalSinkConfig.parse(config(overrides)), progress, Duration.ofSeconds(30), context,
                producers, Optional.of(NO_TRANSACTIONS_ON_THE_BROKER));
    }

    private static final HangingTransactionCheck NO_TRANSACTIONS_ON_THE_BROKER = new HangingTransactionCheck() {
        @Override
        public boolean lastTransactionAborted(String transactionalId) {
            return false;
        }

        @Override
        public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
        }
    };

    /**
     * A handler as {@link TransactionalKafkaSinkTask#start} builds it from {@code config} (progress topic
     * {@code progress}, read within {@code progressReadTimeout}), with the producers and check of
     * {@link #handler(FakeSinkTaskContext, Function, Optional)}; the caller closes it.
     */
    static SinkTaskHandler handler(TransactionalSinkConfig config, String progress, Duration progressReadTimeout,
                                   FakeSinkTaskContext context,
                                   Function<Map<String, Object>, Producer<byte[], byte[]>> producers,
                                   Optional<HangingTransactionCheck> hanging) {
        ClusterAdmins admins = new ClusterAdmins(config.adminConfigs(), config.sourceAdminConfigs());
        SourceTopics sources = new SourceTopics(admins::source, "earliest", Duration.ofSeconds(30));
        ProgressStore store = new ProgressStore(config.adminConfigs(), progress, sources, progressReadTimeout);
        TopicIds topicIds = new TopicIds(admins::target, config.dlqTopic().stream().toList());
        TargetTopics targetTopics = new TargetTopics(config.topicFormat(), config.targetTopicSettings(),
                admins, TargetTopics.ADMIN_TIMEOUT, topicIds, sources);
        WriteSetup setup = new WriteSetup(new RecordConverter(config.topicFormat(), targetTopics, config.keyConverter(),
                config.valueConverter(), config.headerConverter()), deadLetters(config),
                new SinkMetrics(new WorkerPluginMetrics(new TestPluginMetrics())), new DeadLetterBreaker(10, 1.0),
                store.target(),
                hanging.orElseGet(() -> new HangingTransactions(admins, TargetTopics.ADMIN_TIMEOUT, progress)),
                topicIds);
        return TaskSlots.handler(context, config, new WriterFactory(config, setup, producers), store, targetTopics,
                admins, Clock.systemUTC(), hanging.map(scripted -> NOTHING_ON_THE_BROKER));
    }

    /**
     * Rule V's checks for scripted producers, which write nothing to the broker (a check there would find every
     * committed line missing): every line reads visible. Given with a {@code hanging} check of the same premise.
     */
    private static final WrittenChecks NOTHING_ON_THE_BROKER = new WrittenChecks() {
        @Override
        public Map<TopicPartition, WrittenCheck.Verdict> check(Map<TopicPartition, ProgressRecord> progress) {
            Map<TopicPartition, WrittenCheck.Verdict> clean = new HashMap<>();
            progress.keySet().forEach(source -> clean.put(source, new WrittenCheck.Clean(Set.of())));
            return clean;
        }

        @Override
        public boolean stillVisible(Map<TopicPartition, ProgressRecord> progress, Duration bound) {
            return true;
        }

        @Override
        public void close() {
        }
    };

    /** The dead letters of {@code config}, as the task has them: none with send.errors.tolerance=none. */
    private static Optional<DeadLetters> deadLetters(TransactionalSinkConfig config) {
        return config.tolerance() == TransactionalSinkConfig.Tolerance.ALL
                ? Optional.of(new DeadLetters(config.dlqTopic().orElseThrow(), config.dlqPayloadMaxBytes(),
                        config.dlqContextHeaders(), config.connectorName(), config.taskId()))
                : Optional.empty();
    }

    /** Stops a task the test is done with, which {@link #stopTasks()} then leaves alone. */
    void stop(TransactionalKafkaSinkTask task) {
        tasks.remove(task);
        task.stop();
    }

    /** Stops every task started and not stopped yet: after each test. */
    void stopTasks() {
        tasks.forEach(TransactionalKafkaSinkTask::stop);
        tasks.clear();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        stopTasks();
    }

    /** Deletes a topic and creates it again with {@code configs}, as operators purge a topic. */
    void recreate(String topic, Map<String, String> configs) throws Exception {
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
        createAgain(topic, configs);
    }

    /** Creates a topic just deleted, once the broker has finished deleting it. */
    void createAgain(String topic, Map<String, String> configs) {
        Await.until("topic " + topic + " created again after its deletion", Duration.ofSeconds(30), () -> {
            try {
                kafka.createTopic(topic, topic.equals(progress) ? 2 : 1, configs);
                return true;
            } catch (IllegalStateException stillBeingDeleted) {
                return false;
            }
        });
    }
}
