package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.props;
import static dev.quarantine.connect.sink.TestData.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.DescribeProducersResult;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.write.ScriptedProducer;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/** Opening many partitions at once: at the same time, sized for their number, and all or nothing. */
@ExtendWith(LocalKafkaExtension.class)
class PartitionOpeningIT {

    private final LocalKafka kafka;
    private final String source = "opening-" + UUID.randomUUID().toString().substring(0, 8);
    private final String progress = source + ".progress";

    PartitionOpeningIT(LocalKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(progress, 1, Map.of("cleanup.policy", "compact"));
    }

    @Test
    void opensPartitionsAtTheSameTimeWithBatchesAndBuffersSizedForTheirNumber() {
        int partitions = 2 * SinkTaskHandler.OPEN_PARALLELISM;
        CountDownLatch firstFew = new CountDownLatch(SinkTaskHandler.OPEN_PARALLELISM);
        List<Boolean> sawOthersOpening = Collections.synchronizedList(new ArrayList<>());
        List<Map<String, Object>> configs = Collections.synchronizedList(new ArrayList<>());
        SinkTaskHandler handler = handler(producerConfigs -> {
            configs.add(Map.copyOf(producerConfigs));
            return new ScriptedProducer() {
                @Override
                public void initTransactions() {
                    firstFew.countDown();
                    try {
                        sawOthersOpening.add(firstFew.await(30, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    super.initTransactions();
                }
            };
        });

        handler.open(partitions(partitions));
        handler.close();

        assertThat(sawOthersOpening).as("each initTransactions saw %d under way", SinkTaskHandler.OPEN_PARALLELISM)
                .hasSize(partitions).containsOnly(true);
        assertThat(configs).extracting(c -> c.get(ProducerConfig.BUFFER_MEMORY_CONFIG))
                .containsOnly(TransactionalSinkConfig.PRODUCERS_MEMORY_BYTES_DEFAULT / partitions);
    }

    @Test
    void aFailedOpenClosesTheOpenedProducersAndThrowsTheFatalFailureOverATransientOne() {
        List<ScriptedProducer> created = Collections.synchronizedList(new ArrayList<>());
        SinkTaskHandler handler = handler(producerConfigs -> {
            String id = (String) producerConfigs.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
            ScriptedProducer producer = new ScriptedProducer() {
                @Override
                public void initTransactions() {
                    if (id.endsWith("-2")) {
                        throw new TimeoutException("init timed out");
                    }
                    if (id.endsWith("-5")) {
                        throw new TransactionalIdAuthorizationException("denied");
                    }
                    super.initTransactions();
                }
            };
            created.add(producer);
            return producer;
        });

        assertThatThrownBy(() -> handler.open(partitions(8))).isInstanceOf(ConnectException.class)
                .isNotInstanceOf(RetriableException.class).hasMessageContaining(source + "-5");
        handler.close();

        assertThat(created).hasSize(8).allMatch(ScriptedProducer::closed);
        assertThat(handler.preCommit(Map.of())).as("no partition was left open").isEmpty();
    }

    @Test
    void leavesAPartitionWhoseOpenFailedTransientlyToItsFirstRecordsInsteadOfThrowing() {
        AtomicInteger initsOfTheSecond = new AtomicInteger();
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        context.assigned.addAll(partitions(4));
        SinkTaskHandler handler = handler(context, producerConfigs -> {
            String id = (String) producerConfigs.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
            return new ScriptedProducer() {
                @Override
                public void initTransactions() {
                    if (id.endsWith("-2") && initsOfTheSecond.getAndIncrement() == 0) {
                        throw new TimeoutException("init timed out");
                    }
                    super.initTransactions();
                }
            };
        });

        handler.open(partitions(4)); // Connect would stop the task for good on anything open throws
        handler.put(records(source, 2, 0, 5));
        Map<TopicPartition, OffsetAndMetadata> opened = handler.preCommit(Map.of());
        handler.close();

        assertThat(initsOfTheSecond).as("timed out once, then opened on its records").hasValue(2);
        assertThat(context.seeks).as("opened on its first records, delivered again from the first")
                .containsExactly(Map.entry(new TopicPartition(source, 2), 0L));
        assertThat(opened).containsOnlyKeys(new TopicPartition(source, 2));
    }

    /**
     * Issue 22: the look for a committed transaction left open (see {@link HangingTransactions}) at open describes the
     * producers of every partition of the topics the opened partitions write, for all of them at once: n partitions
     * opened, each id's last transaction a commit, make a bounded number of describeTopics and describeProducers
     * calls, not n calls of ~n partitions each.
     */
    @Test
    void looksForCommitsLeftOpenInABoundedNumberOfDescribeCallsWhateverThePartitionsOpened() {
        int partitions = 12;
        TaskFixture fixture = new TaskFixture(kafka, "opening", "commit.interval.ms", "0");
        fixture.createTopics(partitions, Map.of());
        SinkTaskHandler first = fixture.handler(new FakeSinkTaskContext(), configs -> null, Optional.empty());
        try {
            first.open(partitions(fixture.source, partitions));
            partitions(fixture.source, partitions).forEach(p -> first.put(records(p.topic(), p.partition(), 0, 2)));
        } finally {
            first.close();
        }
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        Map<String, Object> configs = Map.of("bootstrap.servers", kafka.bootstrapServers());
        try (ClusterAdmins admins = new ClusterAdmins(configs, configs, adminConfigs -> new ForwardingAdmin(
                adminConfigs) {
            @Override
            public DescribeTopicsResult describeTopics(TopicCollection topics, DescribeTopicsOptions options) {
                calls.add("describeTopics");
                return super.describeTopics(topics, options);
            }

            @Override
            public DescribeProducersResult describeProducers(Collection<TopicPartition> described,
                                                             DescribeProducersOptions options) {
                calls.add("describeProducers");
                return super.describeProducers(described, options);
            }
        })) {
            SinkTaskHandler second = fixture.handler(context, producerConfigs -> null, Optional.of(
                    new HangingTransactions(admins, Duration.ofSeconds(60), fixture.progress)));
            try {
                second.open(partitions(fixture.source, partitions));
            } finally {
                second.close();
            }
        }

        assertThat(context.seeks).as("every partition resumes from its progress")
                .hasSize(partitions).containsOnlyKeys(partitions(fixture.source, partitions)).allSatisfy(
                        (partition, offset) -> assertThat(offset).isEqualTo(2L));
        // the progress partition's producers (for all ids at once), then the partitions the ids write (ditto)
        assertThat(calls).as("describe calls of the check, for %d partitions opened", partitions)
                .containsExactly("describeTopics", "describeProducers", "describeTopics", "describeProducers");
    }

    /**
     * Issue 22: one topic's answer failing in the look for commits left open (here the target topic of one source
     * topic deleted between describeTopics and describeProducers, as an operator may) fails no partition of the
     * other topics: every partition opens and resumes from its progress.
     */
    @Test
    void aTargetTopicDeletedWhileThePartitionsOpenFailsNoOtherPartitionsOpen() {
        TaskFixture fixture = new TaskFixture(kafka, "opening", "commit.interval.ms", "0");
        fixture.createTopics(2, Map.of());
        String other = fixture.source + "-b";
        kafka.createTopic("copy." + other, 2, Map.of());
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(fixture.config("topics",
                fixture.source + "," + other));
        List<TopicPartition> opened = new ArrayList<>(partitions(fixture.source, 2));
        opened.addAll(partitions(other, 2));
        SinkTaskHandler first = TaskFixture.handler(config, fixture.progress, Duration.ofSeconds(30),
                new FakeSinkTaskContext(), configs -> null, Optional.empty());
        try {
            first.open(opened);
            opened.forEach(p -> first.put(records(p.topic(), p.partition(), 0, 2)));
        } finally {
            first.close();
        }
        AtomicInteger deleted = new AtomicInteger();
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        Map<String, Object> configs = Map.of("bootstrap.servers", kafka.bootstrapServers());
        try (ClusterAdmins admins = new ClusterAdmins(configs, configs, adminConfigs -> new ForwardingAdmin(
                adminConfigs) {
            @Override
            public DescribeProducersResult describeProducers(Collection<TopicPartition> described,
                                                             DescribeProducersOptions options) {
                if (described.contains(new TopicPartition("copy." + other, 0)) && deleted.getAndIncrement() == 0) {
                    try (Admin admin = kafka.admin()) {
                        admin.deleteTopics(List.of("copy." + other)).all().get(30, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException("Could not delete copy." + other, e);
                    }
                }
                return super.describeProducers(described, options);
            }
        })) {
            SinkTaskHandler second = TaskFixture.handler(config, fixture.progress, Duration.ofSeconds(30), context,
                    producerConfigs -> null, Optional.of(new HangingTransactions(admins, Duration.ofSeconds(10),
                            fixture.progress)));
            try {
                second.open(opened);
            } finally {
                second.close();
            }
        }

        assertThat(deleted).as("the topic was deleted in the look").hasPositiveValue();
        assertThat(context.seeks).as("every partition resumes from its progress").containsOnlyKeys(opened)
                .allSatisfy((partition, offset) -> assertThat(offset).isEqualTo(2L));
    }

    private static List<TopicPartition> partitions(String topic, int count) {
        return IntStream.range(0, count).mapToObj(p -> new TopicPartition(topic, p)).toList();
    }

    private List<TopicPartition> partitions(int count) {
        return IntStream.range(0, count).mapToObj(p -> new TopicPartition(source, p)).toList();
    }

    /** A handler over the real broker for progress, whose writers' producers {@code producers} builds. */
    private SinkTaskHandler handler(Function<Map<String, Object>, Producer<byte[], byte[]>> producers) {
        return handler(new FakeSinkTaskContext(), producers);
    }

    private SinkTaskHandler handler(FakeSinkTaskContext context,
                                    Function<Map<String, Object>, Producer<byte[], byte[]>> producers) {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props(
                "name", "opening-it",
                "topics", source,
                "target.bootstrap.servers", kafka.bootstrapServers(),
                "progress.topic.name", progress,
                "send.errors.tolerance", "none",
                "transactional.id.prefix", source));
        return TaskFixture.handler(config, progress, Duration.ofSeconds(60), context, producers,
                Optional.of(new HangingTransactionCheck() { // scripted producers leave no transactions on the broker
                    @Override
                    public boolean lastTransactionAborted(String transactionalId) {
                        return false;
                    }

                    @Override
                    public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
                    }
                }));
    }
}
