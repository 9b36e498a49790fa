package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.bytes;
import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;

/**
 * A transaction left hanging by a broker killed right after an abort (its coordinator, restarting, completes it
 * without writing its markers) in the target and progress partitions, then a new task writing the partition: its
 * progress read is not held back for good, the aborted progress record never counts, the batch is written once. On
 * a broker of this class's own, since it is killed.
 */
class HangingTransactionIT {

    private static final int MAX_KILLS = 10;

    private static LocalKafka kafka;
    // each put commits: the test follows one transaction at a time
    private final TaskFixture fixture = new TaskFixture(kafka, "hang", "commit.interval.ms", "0");
    private final String source = fixture.source;
    private final String target = fixture.target;
    private final String progress = fixture.progress;
    private final TopicPartition partition = new TopicPartition(source, 0);
    private final String transactionalId = WriterFactory.transactionalId(source, partition);
    private ProgressTarget progressTarget;

    @BeforeAll
    static void start() {
        kafka = LocalKafka.create().start();
    }

    @AfterEach
    void stopTasks() {
        fixture.stopTasks();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @Test
    void writesABatchOnceWhenAnAbortedTransactionOfItsPartitionWasLeftHangingInTheTargetAcrossABrokerRestart()
            throws Exception {
        fixture.createTopics();
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext());
        first.open(List.of(partition));
        first.put(records(source, 0, 0, 10));
        fixture.stop(first);
        try (Admin admin = kafka.admin()) { // an aborted progress record as the task writes it, claiming 15
            progressTarget = ProgressTarget.known(progress, admin.describeTopics(List.of(progress)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(progress).topicId());
        }

        leaveAnAbortedTransactionHanging(10, 15);

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask second = fixture.start(context);
        second.open(List.of(partition));
        assertThat(context.seeks).containsEntry(partition, 10L);
        second.put(records(source, 0, 10, 20));

        List<String> expected = new ArrayList<>();
        for (long offset = 0; offset < 20; offset++) {
            expected.add("v" + offset);
        }
        assertThat(values(committed(kafka, target))).as("each record once, in order").isEqualTo(expected);
    }

    /**
     * Writes records {@code from..to-1} to the target in a transaction of the partition's transactional id, as a task
     * whose commit failed would, aborts it and kills the broker right after, until the abort is left hanging: open in
     * the target partition while its coordinator says it is complete (about one in two kills).
     */
    private void leaveAnAbortedTransactionHanging(long from, long to) throws Exception {
        for (int kill = 0; kill < MAX_KILLS; kill++) {
            try (KafkaProducer<byte[], byte[]> producer = producer()) {
                producer.initTransactions();
                producer.beginTransaction();
                for (long offset = from; offset < to; offset++) {
                    producer.send(new ProducerRecord<>(target, 0, bytes("k" + offset), bytes("v" + offset)));
                }
                producer.send(progressTarget.record(transactionalId, partition, to));
                producer.flush();
                producer.abortTransaction();
                kafka.kill();
                producer.close(Duration.ZERO);
            }
            kafka.restart();
            if (hanging()) {
                return;
            }
        }
        throw new AssertionError("no aborted transaction was left hanging in " + MAX_KILLS + " broker kills");
    }

    /**
     * Whether the target and progress partitions hold an open transaction once its coordinator has settled the last
     * one.
     */
    private boolean hanging() throws Exception {
        try (Admin admin = kafka.admin()) {
            Await.until(() -> "the coordinator of " + transactionalId + " to settle its last transaction",
                    Duration.ofSeconds(60), () -> settled(admin));
            return open(admin, new TopicPartition(target, 0)) && open(admin, progressTarget.partition());
        }
    }

    private static boolean open(Admin admin, TopicPartition partition) throws Exception {
        List<ProducerState> producers = admin.describeProducers(List.of(partition))
                .partitionResult(partition).get(60, TimeUnit.SECONDS).activeProducers();
        return producers.stream().anyMatch(p -> p.currentTransactionStartOffset().isPresent());
    }

    private boolean settled(Admin admin) {
        try {
            TransactionState state = admin.describeTransactions(List.of(transactionalId)).description(transactionalId)
                    .get(10, TimeUnit.SECONDS).state();
            return state == TransactionState.COMPLETE_ABORT;
        } catch (Exception e) {
            return false; // the coordinator is still loading
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
