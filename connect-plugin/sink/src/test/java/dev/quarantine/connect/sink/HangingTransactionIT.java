package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.StagedTask.values;
import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.connect.sink.StagedEnds.Stage;
import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.Utf8;

/**
 * A transaction of a task's id left hanging by skipped markers (docs/design/sink-ownership.md 2.7.1, "When Kafka 4.4
 * skips markers"): an abort whose records stay open on the target (the id's next commit there would commit them), or
 * a commit C (records 10..14) whose records or progress record stay open; then the task writes on, or stops and a
 * task restarts. Each test stages its premise on {@link TwoBrokers} (the partition on node 2, killed while the
 * transaction ends) and checks it before the task acts: the transaction's first record there is held back. The
 * promise, read {@code read_committed}: each source record once on the target, none lost, none twice, and nothing left
 * open that holds readers back. On Kafka 4.4's default {@code transaction.version} (2);
 * {@link HangingTransactionVersion1IT} runs the same on version 1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HangingTransactionIT {

    private TwoBrokers cluster;
    private TaskFixture fixture;

    /** The cluster's {@code transaction.version}: Kafka's default when empty. */
    Optional<Short> transactionVersion() {
        return Optional.empty();
    }

    @BeforeAll
    void start() {
        cluster = TwoBrokers.start(transactionVersion());
    }

    @AfterEach
    void stopTasks() {
        if (fixture != null) {
            fixture.stopTasks();
        }
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    /**
     * The task stops mid-transaction (10..14 sent, its commit timed out) and its producer's close aborts the
     * transaction while node 2 is down: the abort completes, its records stay open on the target. The restarted task
     * writes 10..19 there; its commit must not commit the aborted 10..14 with them.
     */
    @Test
    void writesEachRecordOnceAfterARestartWhenAnAbortOfItsIdWasLeftHangingOnTheTarget() throws Exception {
        createTopics(2, 1);
        abortLeftHangingByAStoppedTask();

        assertARestartedTaskCopiesEachRecordOnce();
    }

    /**
     * Connect's offsets API (KIP-875) moves the partition's progress back to 5 after an abort of the task's id was
     * left hanging on the target (as in the test above): the next task resumes at 5, and the aborted 10..14 never
     * become visible.
     */
    @Test
    void changesTheProgressThroughTheOffsetsApiAfterAnAbortOfItsIdWasLeftHangingOnTheTarget() throws Exception {
        createTopics(2, 1);
        abortLeftHangingByAStoppedTask();

        alterTo(5);
        copyWithARestartedTask(20);

        assertCopiedOnce(concat(values(0, 10), values(5, 20)));
    }

    /**
     * A task copies 0..9, then stops mid-transaction (10..14 sent, its commit timed out) and its producer's close
     * aborts the transaction while node 2 is down: the abort completes, its records stay open on the target
     * (asserted).
     */
    private void abortLeftHangingByAStoppedTask() {
        TopicPartition target = targetPartition();
        StagedTask stopped = new StagedTask(cluster, fixture, target);
        try {
            stopped.copy(records(fixture.source, 0, 0, 10));
            stopped.ends.arm(Stage.COMMIT_TIMES_OUT);
            stopped.deliverOnce(records(fixture.source, 0, 10, 15));
        } finally {
            closeWhileLeaderless(stopped);
        }
        assertThat(stopped.ends.staged()).containsExactly(Stage.COMMIT_TIMES_OUT);
        assertThat(cluster.atOpenTransaction(target)).as("the premise: the aborted 10..14 held back on %s", target)
                .contains(AtFirst.HELD_BACK);
    }

    /**
     * The commit of 10..19 times out, and the task's next {@code initTransactions} (its slot initialised again, the
     * outcome unknown) aborts the transaction while node 2 is down: the abort completes, its records stay open on the
     * target. The task writes 10..19 again; its commit must not commit the aborted ones with them.
     */
    @Test
    void writesEachRecordOnceWhenItsOwnInitLeftTheAbortOfItsTransactionHangingOnTheTarget() {
        createTopics(2, 1);
        TopicPartition target = targetPartition();
        try (StagedTask task = new StagedTask(cluster, fixture, target)) {
            task.copy(records(fixture.source, 0, 0, 10));
            task.ends.arm(Stage.COMMIT_TIMES_OUT);
            task.ends.arm(Stage.SKIP_MARKERS_AT_INIT);
            task.copy(records(fixture.source, 0, 10, 20));
            assertThat(task.ends.staged()).containsExactly(Stage.COMMIT_TIMES_OUT, Stage.SKIP_MARKERS_AT_INIT);
            assertThat(task.ends.afterSkips()).as("the premise: the aborted 10..19 held back on %s after the init",
                    target).containsExactly(Optional.of(AtFirst.HELD_BACK));
        }

        assertCopiedOnce(values(0, 20));
    }

    /** C left open on the target, the task stopped; a restarted task copies 15..19: C's records once, none lost. */
    @Test
    void copiesOnceAfterARestartWithItsCommitLeftOpenOnTheTarget() throws Exception {
        createTopics(2, 1);
        commitLeftOpenAndStop(targetPartition());

        assertARestartedTaskCopiesEachRecordOnce();
    }

    /**
     * C left open on the target, the task stopped; a restarted task gets no new record. C's records 10..14 must not
     * stay open there: read_committed readers of the partition would be held back for good.
     */
    @Test
    void releasesItsCommitLeftOpenOnTheTargetAfterARestartWhenNoRecordFollows() throws Exception {
        createTopics(2, 1);
        TopicPartition target = targetPartition();
        commitLeftOpenAndStop(target);

        TransactionalKafkaSinkTask task = copyWithARestartedTask(15);
        Await.until("nothing left open on " + target + " after the restart (read_committed readers held back)",
                TwoBrokers.TIMEOUT, () -> {
                    try {
                        task.put(List.of()); // the worker's polls go on with nothing new
                    } catch (RetriableException notYet) {
                        return false;
                    }
                    return cluster.openFrom(target).isEmpty();
                });

        assertCopiedOnce(values(0, 15));
    }

    /**
     * C left open on progress partition 0 (the target on node 1, where C's markers were written), the task stopped:
     * a restarted task's progress read is held back by C there. It must resume after C: C's records once.
     */
    @Test
    void copiesOnceAfterARestartWithItsCommitLeftOpenOnTheProgressPartition() throws Exception {
        createTopics(1, 2);
        commitLeftOpenAndStop(progressPartition());

        assertARestartedTaskCopiesEachRecordOnce();
    }

    /**
     * C left open on the target, then the task stops mid-transaction (15..19 sent, its commit timed out; closing its
     * producer aborts the transaction, C's records with it); a restarted task must not lose C's records.
     */
    @Test
    void copiesOnceAfterARestartWhenStoppedMidTransactionWithItsCommitLeftOpenOnTheTarget() throws Exception {
        createTopics(2, 1);
        try (StagedTask stopped = StagedTask.withCommitLeftOpen(cluster, fixture, targetPartition())) {
            stopped.ends.arm(Stage.COMMIT_TIMES_OUT);
            stopped.deliverOnce(records(fixture.source, 0, 15, 20));
            assertThat(stopped.ends.staged()).endsWith(Stage.COMMIT_TIMES_OUT);
        }

        assertARestartedTaskCopiesEachRecordOnce();
    }

    /**
     * C left open on the target and on progress partition 0 (both on node 2), the task stopped; a restarted task is
     * held back on both: it must resume after C and copy 15..19, C's records once.
     */
    @Test
    void copiesOnceAfterARestartWithItsCommitLeftOpenOnTheTargetAndTheProgressPartition() throws Exception {
        createTopics(2, 2);
        TopicPartition progress = progressPartition();
        commitLeftOpenAndStop(targetPartition());
        assertThat(cluster.atOpenTransaction(progress)).as("the premise: C's progress record held back on %s",
                progress).contains(AtFirst.HELD_BACK);

        assertARestartedTaskCopiesEachRecordOnce();
    }

    /**
     * Connect's offsets API moves the progress back to 5 while C is left open on progress partition 0, holding back
     * the read of the progress: C's records 10..14 stay (committed), and the next task resumes at 5.
     */
    @Test
    void changesTheProgressThroughTheOffsetsApiWithACommitLeftOpenOnTheProgressPartition() throws Exception {
        createTopics(1, 2);
        commitLeftOpenAndStop(progressPartition());

        alterTo(5);
        copyWithARestartedTask(20);

        assertCopiedOnce(concat(values(0, 15), values(5, 20)));
    }

    /**
     * Two source partitions of one task: its commit C of partition 0's 10..14 is left open on target partition 0,
     * then its transaction of partition 1's 10..14 is aborted (the task stopped mid-transaction, its producer's close
     * aborting it) with its markers skipped on target partition 1. Both ranges are the same producer id's, and on
     * {@code transaction.version} 1 the same epoch's. A restarted task must not abort C while it deals with the
     * hanging abort, nor commit the aborted records: each partition's records once.
     */
    @Test
    void keepsACommitLeftOpenOnOneTargetPartitionWhileAnAbortOfTheSameIdHangsOnAnother() throws Exception {
        createTopics(List.of(2, 2), 1);
        TopicPartition target0 = targetPartition();
        TopicPartition target1 = new TopicPartition(fixture.target, 1);
        StagedTask stopped = new StagedTask(cluster, fixture, target0, 2);
        try {
            stopped.copy(concat(records(fixture.source, 0, 0, 10), records(fixture.source, 1, 0, 10)));
            stopped.ends.arm(Stage.SKIP_MARKERS_AT_COMMIT);
            stopped.copy(records(fixture.source, 0, 10, 15));
            stopped.ends.arm(Stage.COMMIT_TIMES_OUT);
            stopped.deliverOnce(records(fixture.source, 1, 10, 15));
        } finally {
            closeWhileLeaderless(stopped);
        }
        assertThat(stopped.ends.staged()).containsExactly(Stage.SKIP_MARKERS_AT_COMMIT, Stage.COMMIT_TIMES_OUT);
        assertThat(stopped.ends.afterSkips()).as("the premise: C held back on %s", target0)
                .containsExactly(Optional.of(AtFirst.HELD_BACK));
        assertThat(List.of(cluster.atOpenTransaction(target0), cluster.atOpenTransaction(target1)))
                .as("the premise: C still held back on %s, the aborted records on %s", target0, target1)
                .containsExactly(Optional.of(AtFirst.HELD_BACK), Optional.of(AtFirst.HELD_BACK));

        copyWithARestartedTask(2, 20);

        Map<Integer, List<String>> copied = committed(cluster.first, fixture.target).stream().collect(
                Collectors.groupingBy(ConsumerRecord::partition, Collectors.mapping(r -> Utf8.text(r.value()),
                        Collectors.toList())));
        assertThat(copied).as("each record of each partition once on the target read_committed")
                .containsOnlyKeys(0, 1);
        assertThat(copied.get(0)).as("partition 0: C's 10..14 not lost").containsExactlyInAnyOrderElementsOf(
                values(0, 20));
        assertThat(copied.get(1)).as("partition 1: the aborted 10..14 not committed")
                .containsExactlyInAnyOrderElementsOf(values(0, 20));
    }

    /**
     * The partition moves: task 1 committed C with its markers skipped on {@code leaderless} and stopped; task 0 is
     * given the partition (it claims it from task 1, fencing task 1's id) and copies on to 19: C's records once.
     */
    private void copiesOnceWhenThePartitionMovesAfterACommitLeftOpenOn(TopicPartition leaderless) {
        StagedTask.withCommitLeftOpen(cluster, fixture, leaderless, "quarantine.task.id", "1").close();

        assertARestartedTaskCopiesEachRecordOnce();
    }

    /** As {@link #copiesOnceWhenThePartitionMovesAfterACommitLeftOpenOn}, C left open on the target. */
    @Test
    void copiesOnceWhenThePartitionMovesFromATaskWhoseCommitWasLeftOpenOnTheTarget() {
        createTopics(2, 1);
        copiesOnceWhenThePartitionMovesAfterACommitLeftOpenOn(targetPartition());
    }

    /**
     * As {@link #copiesOnceWhenThePartitionMovesAfterACommitLeftOpenOn}, C left open on progress partition 0 (task
     * 1's id is no one's once the partition moved: only its holder could complete C with a commit of that id).
     */
    @Test
    void copiesOnceWhenThePartitionMovesFromATaskWhoseCommitWasLeftOpenOnTheProgressPartition() {
        createTopics(1, 2);
        copiesOnceWhenThePartitionMovesAfterACommitLeftOpenOn(progressPartition());
    }

    /**
     * A fresh fixture, its target partition on node {@code targetNode} and progress partition 0 on
     * {@code progressNode}.
     */
    private void createTopics(int targetNode, int progressNode) {
        createTopics(List.of(targetNode), progressNode);
    }

    /** As {@link #createTopics(int, int)}, target partition {@code i} on {@code targetNodes.get(i)}. */
    private void createTopics(List<Integer> targetNodes, int progressNode) {
        fixture = fixture();
        cluster.createTopics(fixture, targetNodes, progressNode);
    }

    private TopicPartition targetPartition() {
        return new TopicPartition(fixture.target, 0);
    }

    private TopicPartition progressPartition() {
        return new TopicPartition(fixture.progress, 0);
    }

    /** A task whose commit C of 10..14 is left open on {@code leaderless} ({@link StagedTask}), stopped. */
    private void commitLeftOpenAndStop(TopicPartition leaderless) {
        StagedTask.withCommitLeftOpen(cluster, fixture, leaderless).close();
    }

    /**
     * Closes {@code stopped} while node 2 is down: its producer's close aborts the open transaction, and the abort
     * completes with its markers not written there.
     */
    private void closeWhileLeaderless(StagedTask stopped) {
        String id = TestIds.holderOf(fixture, stopped.partition);
        cluster.whileLeaderless(() -> {
            stopped.close();
            cluster.awaitCompleted(id, TransactionState.COMPLETE_ABORT);
        });
    }

    private TaskFixture fixture() {
        // each put commits: the test follows one transaction at a time
        // a progress read held back fails the task within 30 s, not the default 5 minutes
        return new TaskFixture(cluster.first, "hang", "commit.interval.ms", "0", "progress.read.timeout.ms", "5000",
                "transient.errors.timeout.ms", "30000", "target.producer.transaction.timeout.ms", "20000");
    }

    /**
     * A task (Connect's, in process) started over the fixture, opening source partition 0 and fed its records
     * 0..{@code to}-1 from offset 0 as a worker does, until it has taken them all; left running.
     */
    private TransactionalKafkaSinkTask copyWithARestartedTask(long to) {
        return copyWithARestartedTask(1, to);
    }

    /** As {@link #copyWithARestartedTask(long)}, over source partitions 0..{@code partitions}-1. */
    private TransactionalKafkaSinkTask copyWithARestartedTask(int partitions, long to) {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        Map<TopicPartition, List<SinkRecord>> source = new LinkedHashMap<>();
        for (int p = 0; p < partitions; p++) {
            source.put(new TopicPartition(fixture.source, p), records(fixture.source, p, 0, to));
        }
        context.assigned.addAll(source.keySet());
        TransactionalKafkaSinkTask task = fixture.start(context);
        task.open(List.copyOf(source.keySet()));
        WorkerLoop worker = new WorkerLoop(task, context, source);
        assertThat(worker.drain(10, 200)).as("the restarted task took every record up to %d", to).isTrue();
        return task;
    }

    /** Connect's offsets API (KIP-875) altering source partition 0's offset to {@code offset}, as the worker calls it. */
    private void alterTo(long offset) {
        assertThat(new TransactionalKafkaSinkConnector().alterOffsets(fixture.config(),
                Map.of(new TopicPartition(fixture.source, 0), offset))).isTrue();
    }

    private static <T> List<T> concat(List<T> first, List<T> then) {
        List<T> both = new ArrayList<>(first);
        both.addAll(then);
        return both;
    }

    /** A restarted task copies 0..19: {@link #assertCopiedOnce} of them. */
    private void assertARestartedTaskCopiesEachRecordOnce() {
        copyWithARestartedTask(20);

        assertCopiedOnce(values(0, 20));
    }

    private void assertCopiedOnce(List<String> expected) {
        assertThat(TestData.values(committed(cluster.first, fixture.target)))
                .as("each record once on the target read_committed: none lost, none twice")
                .containsExactlyInAnyOrderElementsOf(expected);
    }
}
