package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.StagedTask.values;
import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.StagedEnds.Stage;
import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.sandbox.Utf8;

/**
 * An abort of a task's id left hanging by skipped markers (docs/design/sink-ownership.md 2.7.1, "When Kafka 4.4 skips
 * markers"): its records stay open on the target, where the id's next commit would commit them; and a commit C
 * (records 10..14) of a task left open before its partition moves to another task. Each test stages its premise on
 * {@link TwoBrokers} (the partition on node 2, killed while the transaction ends) and checks it before the task acts:
 * the transaction's first record there is held back. The promise, read {@code read_committed}: each source record once
 * on the target, none lost, none twice. On Kafka 4.4's default {@code transaction.version} (2);
 * {@link HangingTransactionVersion1IT} runs the same on version 1. {@link StoppedTaskCommitLeftOpenIT}: a commit left
 * open by a task that stops and restarts.
 */
class HangingTransactionIT extends StoppedTaskChecks {

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
}
