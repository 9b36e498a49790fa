package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.bytes;
import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.CommitCompletion;
import dev.quarantine.connect.sink.progress.OffsetsChange;
import dev.quarantine.connect.sink.progress.ProgressReset;
import dev.quarantine.connect.sink.progress.ProgressTarget;
import dev.quarantine.connect.sink.progress.RedoRange;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;

/**
 * A transaction left hanging by a broker killed right after an abort (its coordinator, restarting, completes it
 * without writing its markers) in the target and progress partitions, then a new task writing the partition: its
 * progress read is not held back for good, the aborted progress record never counts, the batch is written once. On
 * a broker of this class's own, since it is killed: formatted with Kafka 4.4's default transaction.version (2, an
 * epoch bump at every transaction's end); {@link HangingTransactionVersion1IT} runs the same on version 1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HangingTransactionIT {

    private static final int MAX_KILLS = 10;

    LocalKafka kafka;
    TaskFixture fixture;
    String source;
    String target;
    String progress;
    TopicPartition partition;
    /** The id whose transaction is left hanging: the partition's own, or an orphaned one's. */
    String hangingId;
    TopicPartition hangingPartition;
    ProgressTarget progressTarget;
    /** What the coordinator last said of the hanging id's transaction, for a failure's message. */
    private volatile String lastSeen = "nothing yet";

    /** The broker, not started. */
    LocalKafka broker() {
        return LocalKafka.create();
    }

    @BeforeAll
    void start() {
        kafka = broker().start();
    }

    @BeforeEach
    void names() {
        // each put commits: the test follows one transaction at a time
        fixture = new TaskFixture(kafka, "hang", "commit.interval.ms", "0", "progress.read.timeout.ms", "5000");
        source = fixture.source;
        target = fixture.target;
        progress = fixture.progress;
        partition = new TopicPartition(source, 0);
    }

    @AfterEach
    void stopTasks() {
        fixture.stopTasks();
    }

    @AfterAll
    void stop() {
        kafka.close();
    }

    @Test
    void writesABatchOnceWhenAnAbortedTransactionOfItsPartitionWasLeftHangingInTheTargetAcrossABrokerRestart()
            throws Exception {
        leaveATransactionHangingAfterTenCopied(false); // aborted, its progress record claiming 15

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask second = fixture.start(context);
        second.open(List.of(partition));
        assertThat(context.seeks).containsEntry(partition, 10L);
        second.put(records(source, 0, 10, 20));

        assertThat(values(committed(kafka, target))).as("each record once, in order").isEqualTo(valuesUpTo(20));
    }

    /**
     * Issue 22 open item 1: C (records 10..14) commits and a restarting broker skips its markers, so C stays open on
     * target partition 0 and the progress partition. The task opening next must not leave C open on the target: the
     * next transaction there that aborts would abort C's records with its own (the broker counts an open transaction
     * from its first record) while the progress is past them. Staged with another producer of the id (fencing the
     * task) writing 10..19 there and aborting: the first transaction after C, and one of the redo range. The task
     * redoes C instead: an intent back at 10, C aborted on target partition 0; the intent outlives the abort, and the
     * next task writes 10..14 again. Until then C held back read_committed readers of the target partition. (Issue
     * 22 item 5 too: C left open on the progress partition held back every progress read for good, and with a
     * version-2 broker an "epoch below the current one" rule would have aborted it; the open completes it there with a
     * commit of its own before reading.)
     */
    @Test
    void writesACommitLeftOpenOnTheTargetAgainSoThatALaterAbortThereLosesNothing() throws Exception {
        leaveATransactionHangingAfterTenCopied(true);
        FakeSinkTaskContext first = new FakeSinkTaskContext();
        first.assigned.add(partition);
        TransactionalKafkaSinkTask opening = fixture.start(first);
        opening.open(List.of(partition));
        boolean leftOpen;
        try (Admin admin = kafka.admin()) {
            leftOpen = open(admin, new TopicPartition(target, 0));
        }
        fixture.stop(opening);
        abortABatchOfTheIdOnTheTarget(10, 20);

        assertThat(copiedByATaskOpenedNow(20)).as("each record once: 10..14 not lost to the abort")
                .isEqualTo(valuesUpTo(20));
        assertThat(first.seeks).as("sought back to C's first record").containsEntry(partition, 10L);
        assertThat(leftOpen).as("nothing left open on the target after open, so its read_committed readers are not"
                + " held back").isFalse();
    }

    /**
     * Issue 22 open item 1: the process stops after committing the intent to redo C and before aborting C on the
     * target partition (staged by writing the intent with a producer of the id). The next task finds the intent and C
     * still open on the partition it names, aborts C and redoes it: each record once.
     */
    @Test
    void aTaskFindingAnIntentToRedoWithTheCommitStillOpenAbortsItAndRedoesIt() throws Exception {
        leaveATransactionHangingAfterTenCopied(true);
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(progressTarget.intent(hangingId, hangingPartition, 10,
                    new RedoRange(15, Set.of(new TopicPartition(target, 0)))));
            producer.commitTransaction();
        }

        assertThat(copiedByATaskOpenedNow(20)).as("each record once").isEqualTo(valuesUpTo(20));
    }

    /**
     * Issue 22, the intent's first hole (docs/connect-sink.md, "A committed transaction left open on a target
     * partition is redone there"): C (records 10..14) is left open on the progress and target partitions; an open
     * completes C on the progress partition (a commit of {@code <id>/completed} naming C's producer id and epoch, as
     * a task writes it) and the process stops before the intent to redo commits (staged: a producer of the id commits
     * the completion alone). The id's last transaction is then the completion; the next open must still look for C,
     * named by the completion, or C stays open on target partition 0 and the next transaction of the id there that
     * aborts (staged as in {@link #writesACommitLeftOpenOnTheTargetAgainSoThatALaterAbortThereLosesNothing}) aborts
     * C's records too, while the progress is past them (before: the target ended v0..v9, v15..v19).
     */
    @Test
    void redoesACommitLeftOpenOnTheTargetWhenTheProcessStoppedAfterCompletingItOnTheProgressPartitionAlone()
            throws Exception {
        leaveATransactionHangingAfterTenCopied(true);
        completeItOnTheProgressPartitionAlone();
        FakeSinkTaskContext next = new FakeSinkTaskContext();
        next.assigned.add(partition);
        TransactionalKafkaSinkTask opening = fixture.start(next);
        opening.open(List.of(partition));
        boolean leftOpen;
        try (Admin admin = kafka.admin()) {
            leftOpen = open(admin, new TopicPartition(target, 0));
        }
        fixture.stop(opening);
        abortABatchOfTheIdOnTheTarget(10, 20);

        assertThat(copiedByATaskOpenedNow(20)).as("each record once: 10..14 not lost to the abort")
                .isEqualTo(valuesUpTo(20));
        assertThat(next.seeks).as("sought back to C's first record").containsEntry(partition, 10L);
        assertThat(leftOpen).as("nothing left open on the target after open").isFalse();
    }

    /**
     * What an open that stopped right after completing C on the progress partition leaves: a producer of the id
     * commits there the completion naming C as found open on the progress partition (its producer id, its records'
     * epoch), nothing else.
     */
    private void completeItOnTheProgressPartitionAlone() throws Exception {
        ProducerState c;
        try (Admin admin = kafka.admin()) {
            TopicPartition progressPartition = new TopicPartition(progress, 0);
            c = admin.describeProducers(List.of(progressPartition)).partitionResult(progressPartition)
                    .get(30, TimeUnit.SECONDS).activeProducers().stream()
                    .filter(p -> p.currentTransactionStartOffset().isPresent()).findFirst()
                    .orElseThrow(() -> new AssertionError("C is not open on " + progressPartition));
        }
        try (KafkaProducer<byte[], byte[]> stopped = producer()) {
            stopped.initTransactions();
            stopped.beginTransaction();
            stopped.send(new CommitCompletion(c.producerId(), (short) c.producerEpoch()).toRecord(progress,
                    hangingId));
            stopped.commitTransaction();
        }
    }

    /** A producer of the partition's id (fencing its task) writes {@code from}..{@code to}-1 and aborts. */
    private void abortABatchOfTheIdOnTheTarget(long from, long to) {
        try (KafkaProducer<byte[], byte[]> other = producer()) {
            other.initTransactions();
            other.beginTransaction();
            sendTheBatchAndItsProgress(other, from, to);
            other.flush(); // written, so that the abort has markers to write
            other.abortTransaction();
        }
    }

    /** A task opening the partition now copies from where it resumes up to {@code to}: what the target then holds. */
    private List<String> copiedByATaskOpenedNow(long to) throws Exception {
        return copiedByATaskOpenedNow(OptionalLong.empty(), to);
    }

    /**
     * As {@link #copiedByATaskOpenedNow(long)}, the task resuming at {@code at} when given (asserted): what the target
     * then holds.
     */
    List<String> copiedByATaskOpenedNow(OptionalLong at, long to) throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        context.assigned.add(partition);
        TransactionalKafkaSinkTask task = fixture.start(context);
        task.open(List.of(partition));
        assertThat(context.seeks).as("resumes from its progress").containsKey(partition);
        at.ifPresent(offset -> assertThat(context.seeks).as("resumes at " + offset).containsEntry(partition, offset));
        task.put(records(source, 0, context.seeks.get(partition), to));
        return values(committed(kafka, target));
    }

    /**
     * Issue 22 item 5, a limit: a committed transaction of an orphaned id (a partition no task opens any more) left
     * open on the progress partition holds back every task's progress read; only the id's own writer completes it.
     */
    @Test
    void aCommittedTransactionOfAnOrphanedIdLeftOpenOnTheProgressPartitionHoldsBackTheProgressRead() throws Exception {
        leaveATransactionHangingAfterTenCopied(true, true);

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        context.assigned.add(partition);
        TransactionalKafkaSinkTask second = fixture.start(context);
        second.open(List.of(partition));
        assertThat(context.seeks).as("not resumed: its progress could not be read").doesNotContainKey(partition);
        assertThatThrownBy(() -> second.put(records(source, 0, 10, 20)))
                .isInstanceOf(RetriableException.class)
                .hasStackTraceContaining("Could not read the progress of [" + partition + "]")
                .as("names the progress partition held back and the end the read had to reach")
                .hasMessageContaining("Read " + fixture.progress + "-0 up to offset")
                .hasMessageContaining("(the high watermark when the read started)");
    }

    /**
     * Issue 22 item 5, suspected: the repair reads whether the id's last transaction was aborted for all partitions
     * being opened, before their producers' initTransactions, and keeps that answer. A previous producer of the id
     * (a zombie, still writing) committing in between writes with an epoch that answer accepts for the abort's
     * records. Not reproduced on this broker: initTransactions is answered only once the coordinator has written
     * the zombie's commit markers (CONCURRENT_TRANSACTIONS while it prepares), so nothing of that commit is open
     * when the repair looks, and the task resumes after it.
     */
    @Test
    void aZombieCommitBetweenDescribeAndInitIsNotAborted() throws Exception {
        copyTenOnTopicsOfItsOwn(0, false, 1);
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        context.assigned.add(partition);
        try (KafkaProducer<byte[], byte[]> zombie = producer()) {
            zombie.initTransactions();
            zombie.beginTransaction();
            sendTheBatchAndItsProgress(zombie, 10, 15);
            zombie.flush(); // written, so that the coordinator aborts it (not the client alone)
            zombie.abortTransaction();
            assertThat(hanging(TransactionState.COMPLETE_ABORT)).as("the abort completed with its markers")
                    .isFalse(); // the id's last transaction, as the task reads it: aborted

            AtomicBoolean committedMeanwhile = new AtomicBoolean();
            SinkTaskHandler handler = fixture.handler(context, configs -> {
                if (!committedMeanwhile.getAndSet(true)) { // after the describe, before the writer's producer
                    zombie.beginTransaction();
                    sendTheBatchAndItsProgress(zombie, 10, 15);
                    zombie.commitTransaction();
                }
                return null;
            }, Optional.empty());
            try {
                handler.open(List.of(partition));
                assertThat(committedMeanwhile).as("the zombie committed before initTransactions").isTrue();
                assertThat(context.seeks).as("resumes after the zombie's commit").containsEntry(partition, 15L);
                handler.put(records(source, 0, 15, 20));
            } finally {
                handler.close();
            }
        }
        assertThat(values(committed(kafka, target))).as("each record once, the zombie's commit kept")
                .isEqualTo(valuesUpTo(20));
    }

    /** The values of records 0..{@code to}-1, in order. */
    static List<String> valuesUpTo(long to) {
        List<String> values = new ArrayList<>();
        for (long offset = 0; offset < to; offset++) {
            values.add("v" + offset);
        }
        return values;
    }

    /** Records {@code from}..{@code to}-1 to target partition 0 and the progress record claiming {@code to}. */
    void sendTheBatchAndItsProgress(KafkaProducer<byte[], byte[]> producer, long from, long to) {
        sendTheBatchAndItsProgress(producer, 0, from, to);
    }

    /** As {@link #sendTheBatchAndItsProgress(KafkaProducer, long, long)}, to partition {@code targetPartition}. */
    void sendTheBatchAndItsProgress(KafkaProducer<byte[], byte[]> producer, int targetPartition, long from, long to) {
        for (long offset = from; offset < to; offset++) {
            producer.send(new ProducerRecord<>(target, targetPartition, bytes("k" + offset), bytes("v" + offset)));
        }
        producer.send(progressTarget.record(hangingId, hangingPartition, from, to));
    }

    /**
     * Issue 22: a change through Connect's offsets API (KIP-875) opens the partition's producer as a task does: the
     * aborted transaction left hanging is aborted first (else the read of the progress was held back by it, and the
     * reset's commit marker would have committed its records), and the next task resumes at the altered offset.
     */
    @Test
    void changesTheProgressThroughTheOffsetsApiAfterAbortingAnAbortedTransactionLeftHanging() throws Exception {
        leaveATransactionHangingAfterTenCopied(false);

        new ProgressReset(TransactionalSinkConfig.parse(fixture.config()))
                .apply(Map.of(partition, 5L), Map.of(), OffsetsChange.ALTER);

        assertThat(copiedByATaskOpenedNow(OptionalLong.of(5), 20))
                .as("0..9 once, then 5..19 once from the altered offset; never the aborted 10..14")
                .isEqualTo(expected(0, 10, 5, 20));
    }

    /**
     * Issue 22: as a task open, a change through Connect's offsets API completes a committed transaction left open on
     * the progress partition before reading the progress (which it held back).
     */
    @Test
    void changesTheProgressThroughTheOffsetsApiAfterCompletingACommittedTransactionLeftOpen() throws Exception {
        leaveATransactionHangingAfterTenCopied(true);

        new ProgressReset(TransactionalSinkConfig.parse(fixture.config()))
                .apply(Map.of(partition, 5L), Map.of(), OffsetsChange.ALTER);

        assertThat(copiedByATaskOpenedNow(OptionalLong.of(5), 20))
                .as("0..14 once (10..14 committed), then 5..19 once from the altered offset")
                .isEqualTo(expected(0, 15, 5, 20));
    }

    /** {@code v<from>..v<to-1>}, then {@code v<thenFrom>..v<thenTo-1>}. */
    private static List<String> expected(long from, long to, long thenFrom, long thenTo) {
        List<String> values = new ArrayList<>();
        LongStream.concat(LongStream.range(from, to), LongStream.range(thenFrom, thenTo))
                .forEach(offset -> values.add("v" + offset));
        return values;
    }

    /**
     * Copies records 0..9 with a task, then writes records 10..14 to the target in a transaction of the partition's
     * transactional id with its progress record (claiming 15), commits or (as a task whose commit failed would)
     * aborts it and kills the broker right after, until the transaction is left hanging: open in the target and
     * progress partitions while its coordinator says it is complete (about one in two kills on version 2, fewer on
     * version 1). An attempt that left nothing hanging has completed its transaction, whose records are then in the
     * target for good: each attempt starts over on topics and a transactional id of its own.
     */
    private void leaveATransactionHangingAfterTenCopied(boolean commit) throws Exception {
        leaveATransactionHangingAfterTenCopied(commit, false);
    }

    /** As {@link #leaveATransactionHangingAfterTenCopied(boolean)}, by an orphaned id when {@code orphaned}. */
    private void leaveATransactionHangingAfterTenCopied(boolean commit, boolean orphaned) throws Exception {
        for (int kill = 0; kill < MAX_KILLS; kill++) {
            copyTenOnTopicsOfItsOwn(kill, orphaned, 1);
            endATransactionAndKillTheBroker(10, 15, commit);
            if (hanging(commit ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT)) {
                return;
            }
        }
        throw new AssertionError("no transaction was left hanging in " + MAX_KILLS + " broker kills");
    }

    /**
     * Records 0..9 copied by a task (stopped then), on topics and a transactional id of the attempt's own (an
     * earlier attempt's are left behind), the target topic with {@code targetPartitions}; the id of the transaction
     * to leave hanging is the partition's own, or an orphan's when {@code orphaned}.
     */
    void copyTenOnTopicsOfItsOwn(int attempt, boolean orphaned, int targetPartitions) throws Exception {
        if (attempt > 0) {
            fixture.stopTasks();
            names();
        }
        // an orphan: the id of a partition of a source topic no task reads any more
        hangingPartition = orphaned ? new TopicPartition(source + ".gone", 0) : partition;
        hangingId = WriterFactory.transactionalId(source, hangingPartition);
        fixture.createTopics(targetPartitions, Map.of());
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext());
        first.open(List.of(partition));
        first.put(records(source, 0, 0, 10));
        fixture.stop(first);
        try (Admin admin = kafka.admin()) {
            progressTarget = ProgressTarget.known(progress, admin.describeTopics(List.of(progress))
                    .allTopicNames().get(30, TimeUnit.SECONDS).get(progress).topicId());
        }
    }

    private void endATransactionAndKillTheBroker(long from, long to, boolean commit) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            producer.initTransactions();
            producer.beginTransaction();
            sendTheBatchAndItsProgress(producer, from, to);
            producer.flush();
            if (commit) {
                producer.commitTransaction();
            } else {
                producer.abortTransaction();
            }
            kafka.kill();
            producer.close(Duration.ZERO);
        }
        kafka.restart();
    }

    /**
     * Whether the target and progress partitions hold an open transaction once its coordinator has settled the last
     * one.
     */
    boolean hanging(TransactionState settled) throws Exception {
        try (Admin admin = kafka.admin()) {
            Await.until(() -> "the coordinator of " + hangingId + " to settle its last transaction in " + settled
                    + " (last seen: " + lastSeen + ")", Duration.ofSeconds(60), () -> settled(admin, settled));
            return open(admin, new TopicPartition(target, 0)) && open(admin, progressTarget.partition());
        }
    }

    static boolean open(Admin admin, TopicPartition partition) throws Exception {
        List<ProducerState> producers = admin.describeProducers(List.of(partition))
                .partitionResult(partition).get(60, TimeUnit.SECONDS).activeProducers();
        return producers.stream().anyMatch(p -> p.currentTransactionStartOffset().isPresent());
    }

    private boolean settled(Admin admin, TransactionState settled) {
        try {
            TransactionDescription described = admin.describeTransactions(List.of(hangingId))
                    .description(hangingId).get(10, TimeUnit.SECONDS);
            lastSeen = described.state() + " at epoch " + described.producerEpoch();
            return described.state() == settled;
        } catch (Exception e) {
            lastSeen = e.toString();
            return false; // the coordinator is still loading
        }
    }

    KafkaProducer<byte[], byte[]> producer() {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, hangingId);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
