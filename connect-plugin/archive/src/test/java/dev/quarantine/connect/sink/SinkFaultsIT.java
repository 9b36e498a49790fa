package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.FaultSuite.LANDED;
import static dev.quarantine.connect.sink.FaultSuite.assertExactlyOnce;
import static dev.quarantine.connect.sink.FaultSuite.connectorConfig;
import static dev.quarantine.connect.sink.FaultSuite.produce;
import static dev.quarantine.connect.sink.FaultSuite.value;
import static dev.quarantine.connect.sink.TestData.header;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.connect.faults.FaultyConverter;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.sandbox.LocalCluster;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * The fault suite of the sink's writer: one broker (which aborts timed-out transactions within a second) and one
 * Connect worker JVM loading the plugin from plugin.path, shared by the tests. Each ends with the target and the DLQ
 * holding every input exactly once (read_committed, by key) and the connector RUNNING, or FAILED with its
 * documented message, and copying going on after the fault.
 */
class SinkFaultsIT {

    @RegisterExtension
    static final LocalCluster cluster = LocalCluster.ownBroker(
            Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"))
            .withWorkers(1, FaultSuite::worker);

    @Test
    void reestablishesEveryPartitionFencedFromOutsideMidRunAndWritesEveryRecordOnce() throws Exception {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "fenced");
        produce(cluster.kafka(), topics.source(), 0, 1500, i -> value("id=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics));
        cluster.worker().awaitRunning(topics.name(), 2, Duration.ofSeconds(90));

        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()));
             TopicReader dlq = TopicReader.open(cluster.kafka(), List.of(topics.dlq()))) {
            target.awaitAtLeast(300, LANDED);
            fenceAll(topics);
            produce(cluster.kafka(), topics.source(), 1500, 3000, i -> value("id=" + i));
            target.awaitAtLeast(2000, LANDED);
            fenceAll(topics);
            produce(cluster.kafka(), topics.source(), 3000, 4000, i -> value("id=" + i));

            awaitEachOnce(target, dlq, 4000, Set.of());
        }
        assertRunningThenDelete(topics);
    }

    /**
     * Issue 22 (c): another writer holds a transaction open on partition 0 of the progress topic (its
     * transaction.timeout.ms 25 s, which the broker enforces) while the tasks restart: their progress reads are held
     * back past progress.read.timeout.ms (10 s here; the worker's log shows the reads held back, the first about 11 s
     * after the transaction began). Before, the task went FAILED for good (open threw); now the partitions are opened
     * again once the broker has aborted that transaction. (The transaction's timeout was 45 s: four reads held back
     * instead of two, the test 20 s longer.)
     */
    @Test
    void opensItsPartitionsOnceAnotherWritersTransactionHoldingBackTheProgressEndsInsteadOfFailing()
            throws Exception {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "heldback");
        produce(cluster.kafka(), topics.source(), 0, 100, i -> value("id=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics,
                "progress.read.timeout.ms", "10000"));
        Properties props = cluster.kafka().clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "another-writer-" + topics.name());
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "25000");

        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()));
             TopicReader dlq = TopicReader.open(cluster.kafka(), List.of(topics.dlq()));
             KafkaProducer<byte[], byte[]> other =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            target.awaitAtLeast(100, LANDED);
            other.initTransactions();
            other.beginTransaction();
            other.send(new ProducerRecord<>(TransactionalSinkConfig.defaultProgressTopic(topics.name()), 0,
                    value("another-writer"), value("not a progress record"))).get(30, TimeUnit.SECONDS);
            cluster.worker().restartConnector(topics.name());
            produce(cluster.kafka(), topics.source(), 100, 200, i -> value("id=" + i));

            awaitEachOnce(target, dlq, 200, Set.of());
            other.close(Duration.ZERO);
        }
        long heldBack = cluster.worker().logLines().stream()
                .filter(line -> line.contains("the read of the progress was held back"))
                .filter(line -> line.contains(topics.source())).count();
        assertThat(heldBack).as("the premise: reads of %s's progress held back by the other writer's transaction,"
                + " in %s", topics.source(), cluster.worker().logFile()).isPositive();
        assertRunningThenDelete(topics);
    }

    @Test
    void writesEveryRecordOnceWhenAPutOutlivesTheTransactionTimeout() {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "slow");
        IntPredicate slow = i -> i % 200 == 50;
        produce(cluster.kafka(), topics.source(), 0, 600,
                i -> value((slow.test(i) ? "slow-" + topics.name() : "id") + "=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics,
                "target.value.converter", FaultyConverter.class.getName(),
                "target.value.converter.slow.ms", "8000",
                "target.producer.transaction.timeout.ms", "2000"));

        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()));
             TopicReader dlq = TopicReader.open(cluster.kafka(), List.of(topics.dlq()))) {
            target.awaitAtLeast(600, LANDED);
            produce(cluster.kafka(), topics.source(), 600, 700, i -> value("id=" + i));
            awaitEachOnce(target, dlq, 700, Set.of());
        }
        assertRunningThenDelete(topics);
    }

    @Test
    void deadLettersConverterFailuresWithTheirOriginalBytesAndRetriesATransientOneUntilItHeals() {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "converter");
        IntPredicate dataError = i -> i % 50 == 7;
        IntPredicate badArgument = i -> i % 50 == 23;
        IntPredicate flaky = i -> i % 100 == 41;
        produce(cluster.kafka(), topics.source(), 0, 1000, i -> value((dataError.test(i) ? "data-error"
                : badArgument.test(i) ? "bad-argument" : flaky.test(i) ? "flaky-" + topics.name() : "id") + "=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics,
                "target.value.converter", FaultyConverter.class.getName()));
        Set<Integer> poison = IntStream.range(0, 1000).filter(dataError.or(badArgument)).boxed()
                .collect(Collectors.toSet());

        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()));
             TopicReader dlq = TopicReader.open(cluster.kafka(), List.of(topics.dlq()))) {
            List<ConsumerRecord<byte[], byte[]>> letters = awaitEachOnce(target, dlq, 1000, poison);
            assertThat(letters).allSatisfy(letter -> {
                assertThat(text(letter.value())).matches("(data-error|bad-argument)=\\d+");
                assertThat(header(letter, DeadLetterHeaders.VALUE_ENCODING)).isEqualTo("bytes");
                assertThat(header(letter, DeadLetterHeaders.ERROR_CATEGORY)).isEqualTo("RECORD");
            });
        }
        assertRunningThenDelete(topics);
    }

    @Test
    void truncatesDeadLettersOfPoisonLargerThanTheTargetProducersMaxRequestSize() {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "maxrequest");
        IntPredicate large = i -> i % 100 == 0;
        produce(cluster.kafka(), topics.source(), 0, 1000, i -> large.test(i) ? Arrays.copyOf(value("id=" + i), 50_000)
                : value("id=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics,
                "target.producer.max.request.size", "20000"));
        Set<Integer> poison = IntStream.range(0, 1000).filter(large).boxed().collect(Collectors.toSet());

        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()));
             TopicReader dlq = TopicReader.open(cluster.kafka(), List.of(topics.dlq()))) {
            List<ConsumerRecord<byte[], byte[]>> letters = awaitEachOnce(target, dlq, 1000, poison);
            assertThat(letters).allSatisfy(letter -> {
                assertThat(letter.serializedValueSize()).isLessThan(20_000);
                assertThat(header(letter, DeadLetterHeaders.PAYLOAD_TRUNCATED)).contains("value");
            });
        }
        assertRunningThenDelete(topics);
    }

    @Test
    void theBreakerFailsTheTaskInsteadOfDrainingTheStreamWhenTheTargetTopicIsDeletedMidRun() throws Exception {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "breaker");
        produce(cluster.kafka(), topics.source(), 0, 300, i -> value("id=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics,
                "dlq.window.records", "100",
                "dlq.max.ratio", "0.5",
                "target.topic.creation.enable", "false", // should the connector create missing targets (issue 9)
                "target.producer.max.block.ms", "5000",
                // sends to the deleted topic's partitions expire after 10 s, not Kafka's 120 s
                "target.producer.delivery.timeout.ms", "10000",
                "target.producer.request.timeout.ms", "5000",
                "target.producer.txn.send.topic.metadata.max.age.ms", "1000"));
        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()))) {
            target.awaitAtLeast(300, LANDED);
        }
        try (Admin admin = cluster.kafka().admin()) {
            admin.deleteTopics(List.of(topics.target())).all().get(30, TimeUnit.SECONDS);
        }
        produce(cluster.kafka(), topics.source(), 300, 1200, i -> value("id=" + i));

        JsonNode failed = cluster.worker().awaitFailedTask(topics.name(), LANDED);

        assertThat(failed.path("trace").asText()).contains("dlq.max.ratio=0.5")
                .contains("failed with org.apache.kafka.common.errors.UnknownTopicOrPartitionException");
        cluster.kafka().createTopic(topics.target(), 3, Map.of());
        cluster.worker().restartConnector(topics.name());
        cluster.worker().awaitRunning(topics.name(), 2, Duration.ofSeconds(90));
        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()));
             TopicReader dlq = TopicReader.open(cluster.kafka(), List.of(topics.dlq()))) {
            List<ConsumerRecord<byte[], byte[]>> letters = dlq.drain(Duration.ofSeconds(3));
            target.awaitAtLeast(900 - letters.size(), LANDED);
            List<String> after = FaultSuite.keys(target.drain(Duration.ofSeconds(3)));
            after.addAll(FaultSuite.keys(dlq.drain(Duration.ZERO)));
            assertThat(letters.size()).as("the breaker stopped the drain").isLessThan(450);
            assertThat(after).as("every record after the deletion once, in the new target or the DLQ")
                    .doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(300, 1200).mapToObj(i -> "key-" + i).toList());
        }
        cluster.worker().deleteConnector(topics.name());
    }

    /**
     * Waits until the target holds every input of {@code 0..total} but {@code poison} and the DLQ every one of
     * {@code poison}, then asserts each exactly once (a quiet drain catches a duplicate); returns the dead letters.
     */
    private static List<ConsumerRecord<byte[], byte[]>> awaitEachOnce(TopicReader target, TopicReader dlq, int total,
                                                                     Set<Integer> poison) {
        target.awaitAtLeast(total - poison.size(), LANDED);
        List<ConsumerRecord<byte[], byte[]>> letters = dlq.awaitAtLeast(poison.size(), LANDED);
        assertExactlyOnce(target.drain(Duration.ofSeconds(3)), dlq.drain(Duration.ZERO),
                difference(range(0, total), poison), poison);
        return letters;
    }

    /** The test's end: the connector still RUNNING with its two tasks after the fault, then deleted. */
    private static void assertRunningThenDelete(FaultSuite.Topics topics) {
        assertThat(LocalConnect.isRunning(cluster.worker().status(topics.name()), 2)).isTrue();
        cluster.worker().deleteConnector(topics.name());
    }

    private static void fenceAll(FaultSuite.Topics topics) throws Exception {
        try (Admin admin = cluster.kafka().admin()) {
            // the ids of the connector's tasks (tasks.max=2, one slot each): they write the source partitions
            admin.fenceProducers(IntStream.range(0, 2).mapToObj(task -> OwnershipRecord.taskId(topics.name(), task, 0))
                    .toList()).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static Set<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().collect(Collectors.toSet());
    }

    private static Set<Integer> difference(Set<Integer> all, Set<Integer> removed) {
        return all.stream().filter(i -> !removed.contains(i)).collect(Collectors.toSet());
    }
}
