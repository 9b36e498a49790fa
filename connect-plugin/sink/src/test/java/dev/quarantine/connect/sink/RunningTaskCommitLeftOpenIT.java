package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.bytes;
import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.header;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.sinkRecord;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * Issue 22, a committed transaction left open under a running task: the task's own commit C (records 10..14) is left
 * open on target partition 0 (a broker killed right after the commit restarts and completes C without writing its
 * markers), while the task stays up and writes on with the same producer. Its next transaction there aborts (a record
 * the broker rejects); the broker counts the open transaction on the partition from C's first record, so that abort
 * aborts C's records too, while the progress is past them. On a broker of this class's own, since it is killed:
 * Kafka 4.4's default transaction.version (2); {@link RunningTaskCommitLeftOpenVersion1IT} runs the same on
 * version 1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunningTaskCommitLeftOpenIT {

    private static final int MAX_KILLS = 10;

    LocalKafka kafka;
    private TaskFixture fixture;
    private TopicPartition partition;
    private String transactionalId;
    private final AtomicBoolean killAfterCommit = new AtomicBoolean();
    private final AtomicBoolean abortTimesOut = new AtomicBoolean();

    /** The broker, not started. */
    LocalKafka broker() {
        return LocalKafka.create();
    }

    @BeforeAll
    void start() {
        kafka = broker().start();
    }

    @AfterAll
    void stop() {
        kafka.close();
    }

    /**
     * The record the broker rejects is one without a key once the target topic became compacted (the producer's
     * up-front checks still hold its old config): the transaction that sent it aborts, and the task isolates it and
     * dead-letters it. Before, that abort aborted C's records 10..14 on the target partition too, and the progress
     * went on past them: lost. Now the task looks before aborting, finds its own committed C open there, and after the
     * abort commits the intent to redo it (the progress back at 10, the redo up to 15 on that partition) and asks the
     * worker for the records again from 10: each record once.
     */
    @Test
    void writesAgainItsCommitLeftOpenOnTheTargetWhenItsNextTransactionThereAborts() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        try (SinkTaskHandler task = runningTaskWhoseCommitIsLeftOpen(context)) {
            compactTheTarget();
            context.seeks.clear();
            task.put(withoutKeyAt(17, records(fixture.source, 0, 15, 20)));
            long soughtTo = context.seeks.getOrDefault(partition, 20L);
            if (soughtTo < 20) { // as the worker does: the records again from where the task sought
                task.put(withoutKeyAt(17, records(fixture.source, 0, soughtTo, 20)));
            }
        }

        List<String> expected = new ArrayList<>(HangingTransactionIT.valuesUpTo(20));
        expected.remove("v17");
        assertThat(values(committed(kafka, fixture.target))).as("each record but the rejected one once, 10..14"
                + " not lost to the abort").isEqualTo(expected);
        assertThat(committed(kafka, fixture.dlq)).singleElement()
                .satisfies(letter -> assertThat(header(letter, DeadLetterHeaders.CONNECT_OFFSET)).isEqualTo("17"));
    }

    /**
     * As above, C then completed on the progress partition alone (a transaction whose one record, 15, is dead-lettered
     * by the up-front checks: it writes the dead-letter and progress partitions, not the target one), and the abort of
     * the next transaction on the target partition times out (armed once: the producer's abortTransaction throws
     * Kafka's TimeoutException without aborting, as when the coordinator does not answer within max.block.ms). The
     * writer is then broken and closed; the transaction ends aborted all the same (the partition's next producer's
     * initTransactions aborts it), C's records 10..14 on the target partition with it, while the progress, at 16, is
     * past them. Before, what the look had found was dropped with the broken producer: 10..14 lost. Now it is carried
     * to the partition's next producer, which commits the intent to redo before writing anything and has the worker
     * deliver the records again from 10.
     */
    @Test
    void writesAgainItsCommitLeftOpenWhenTheAbortOfItsNextTransactionThereTimesOut() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        try (SinkTaskHandler task = runningTaskWhoseCommitIsLeftOpen(context)) {
            compactTheTarget();
            task.put(poisoned(15, 16));
            try (Admin admin = kafka.admin()) {
                assertThat(HangingTransactionIT.open(admin, new TopicPartition(fixture.target, 0)))
                        .as("C still open on the target partition").isTrue();
                // the commit's answer comes before its markers: wait for the progress partition's marker
                Await.until("C completed on the progress partition", Duration.ofSeconds(60),
                        () -> !openQuietly(admin, new TopicPartition(fixture.progress, 0)));
            }
            abortTimesOut.set(true);
            long from = 16;
            for (int put = 0; put < 4 && from < 20; put++) { // as the worker does: again from where the task sought
                context.seeks.clear();
                task.put(poisoned(from, 20));
                from = context.seeks.getOrDefault(partition, 20L);
            }
            assertThat(abortTimesOut).as("the abort of the failing transaction was the one that timed out").isFalse();
        }

        List<String> expected = new ArrayList<>(HangingTransactionIT.valuesUpTo(20));
        expected.removeAll(List.of("v15", "v17"));
        assertThat(values(committed(kafka, fixture.target))).as("each record but the dead-lettered ones once, 10..14"
                + " not lost to the abort that timed out").isEqualTo(expected);
        assertThat(committed(kafka, fixture.dlq)).extracting(letter -> header(letter, DeadLetterHeaders.CONNECT_OFFSET))
                .containsExactly("15", "17");
    }

    /** Records {@code from} to {@code to} (exclusive): 15 too large for the producer, 17 without a key. */
    private List<SinkRecord> poisoned(long from, long to) {
        List<SinkRecord> batch = new ArrayList<>(withoutKeyAt(17, records(fixture.source, 0, from, to)));
        batch.replaceAll(r -> r.kafkaOffset() == 15
                ? sinkRecord(r.topic(), r.kafkaPartition(), 15, "k15", new byte[1_100_000], r.timestamp()) : r);
        return batch;
    }

    /**
     * A handler (a task's, in process) on topics of its own that copied 0..9, then committed 10..14 (C) with the broker
     * killed right after the commit returned, and restarted; again, on new topics and a new handler, until C is left
     * open on target partition 0 and the progress partition while its coordinator says it committed.
     */
    private SinkTaskHandler runningTaskWhoseCommitIsLeftOpen(FakeSinkTaskContext context) throws Exception {
        for (int kill = 0; kill < MAX_KILLS; kill++) {
            fixture = new TaskFixture(kafka, "live", "commit.interval.ms", "0");
            fixture.createTopics();
            partition = new TopicPartition(fixture.source, 0);
            transactionalId = WriterFactory.transactionalId(fixture.source, partition);
            context.assigned.add(partition);
            SinkTaskHandler task = TaskFixture.handler(TransactionalSinkConfig.parse(fixture.config(
                    // the up-front checks keep the target's config from before it became compacted
                    "target.producer.txn.send.topic.metadata.max.age.ms", "600000")), fixture.progress,
                    Duration.ofSeconds(30), context, this::killingAfterArmedCommit, Optional.empty());
            task.open(List.of(partition));
            task.put(records(fixture.source, 0, 0, 10));
            killAfterCommit.set(true);
            task.put(records(fixture.source, 0, 10, 15));
            kafka.restart();
            if (leftOpen()) {
                return task;
            }
            task.close();
            context.assigned.clear();
        }
        throw new AssertionError("no commit was left open in " + MAX_KILLS + " broker kills");
    }

    /**
     * A producer that kills the broker right after a commit, when armed: before the coordinator writes markers; and
     * whose abort, when armed, times out without aborting.
     */
    private KafkaProducer<byte[], byte[]> killingAfterArmedCommit(Map<String, Object> configs) {
        return new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer()) {
            @Override
            public void commitTransaction() {
                super.commitTransaction();
                if (killAfterCommit.getAndSet(false)) {
                    kafka.kill();
                }
            }

            @Override
            public void abortTransaction() {
                if (abortTimesOut.getAndSet(false)) {
                    throw new TimeoutException("Timeout expired after 60000ms while awaiting EndTxn(false)");
                }
                super.abortTransaction();
            }
        };
    }

    /** Whether C is open on target partition 0 and the progress partition once its coordinator says it committed. */
    private boolean leftOpen() throws Exception {
        try (Admin admin = kafka.admin()) {
            Await.until(() -> "the coordinator of " + transactionalId + " to load its committed transaction",
                    Duration.ofSeconds(60), () -> settledCommitted(admin));
            return HangingTransactionIT.open(admin, new TopicPartition(fixture.target, 0))
                    && HangingTransactionIT.open(admin, new TopicPartition(fixture.progress, 0));
        }
    }

    private boolean settledCommitted(Admin admin) {
        try {
            TransactionDescription described = admin.describeTransactions(List.of(transactionalId))
                    .description(transactionalId).get(10, TimeUnit.SECONDS);
            return described.state() == TransactionState.COMPLETE_COMMIT;
        } catch (Exception stillLoading) {
            return false;
        }
    }

    private void compactTheTarget() throws Exception {
        try (Admin admin = kafka.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, fixture.target),
                    List.of(new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"),
                            AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** {@code batch} with the record of source offset {@code offset} without a key. */
    private static List<SinkRecord> withoutKeyAt(long offset, List<SinkRecord> batch) {
        List<SinkRecord> changed = new ArrayList<>(batch);
        changed.replaceAll(r -> r.kafkaOffset() == offset
                ? sinkRecord(r.topic(), r.kafkaPartition(), offset, null, bytes("v" + offset), r.timestamp()) : r);
        return changed;
    }

    private static boolean openQuietly(Admin admin, TopicPartition partition) {
        try {
            return HangingTransactionIT.open(admin, partition);
        } catch (Exception e) {
            throw new IllegalStateException("could not describe the producers of " + partition, e);
        }
    }
}
