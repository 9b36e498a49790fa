package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.StagedTask.values;
import static dev.quarantine.connect.sink.TestData.records;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.StagedEnds.Stage;
import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.sandbox.Await;

/**
 * A commit C (records 10..14) of a task's id left open by skipped markers (docs/design/sink-ownership.md 2.7.1, "When
 * Kafka 4.4 skips markers") on the target, on the progress partition or on both; then the task stops and a task
 * restarts. Each test stages its premise on {@link TwoBrokers} (the partition on node 2, killed while C commits) and
 * checks it before the task acts: C's first record there is held back. The promise, read {@code read_committed}: each
 * source record once on the target, none lost, none twice, and nothing left open that holds readers back. On Kafka
 * 4.4's default {@code transaction.version} (2); {@link StoppedTaskCommitLeftOpenVersion1IT} runs the same on version
 * 1. {@link RunningTaskCommitLeftOpenIT}: the task writes on instead.
 */
class StoppedTaskCommitLeftOpenIT extends StoppedTaskChecks {

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
}
