package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.StagedTask.values;
import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.header;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.sinkRecord;
import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.connect.sink.StagedEnds.Stage;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * A running task's commit C (records 10..14) left open on one partition by skipped markers
 * (docs/design/sink-ownership.md 2.7.1), then the task's next transaction there (15..19) aborted, with the task still
 * up: the abort ends the producer id's whole open range, C's records or C's progress record with it. Each test stages
 * its premise on {@link TwoBrokers} (the partition on node 2, killed while C commits) and checks it before the task
 * writes on: C's first record there is held back. The promise, read {@code read_committed}: each source record once
 * on the target (a rejected one once in the dead-letter topic), none lost, none twice. On Kafka 4.4's default
 * {@code transaction.version} (2); {@link RunningTaskCommitLeftOpenVersion1IT} runs the same on version 1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunningTaskCommitLeftOpenIT {

    private TwoBrokers cluster;

    /** The cluster's {@code transaction.version}: Kafka's default when empty. */
    Optional<Short> transactionVersion() {
        return Optional.empty();
    }

    @BeforeAll
    void start() {
        cluster = TwoBrokers.shared(transactionVersion());
    }

    /**
     * The next transaction aborts on a record the broker rejects: one without a key once the target topic became
     * compacted (the producer's up-front checks still hold its old config). The task dead-letters it and writes the
     * rest again; C's records 10..14 were aborted on the target with the failed transaction while the progress is past
     * them.
     */
    @Test
    void writesAgainItsCommitLeftOpenOnTheTargetWhenItsNextTransactionThereAbortsOnARejectedRecord() throws Exception {
        assertCopiedOnceWhenTheNextTransactionRejectsARecord(Optional.empty());
    }

    /**
     * As above, and the abort of the failing transaction times out (as when the coordinator does not answer within
     * {@code max.block.ms}): the producer is broken, and the slot's next {@code initTransactions} aborts the
     * transaction, C's records 10..14 on the target with it.
     */
    @Test
    void writesAgainItsCommitLeftOpenOnTheTargetWhenTheAbortOfItsNextTransactionThereTimesOut() throws Exception {
        assertCopiedOnceWhenTheNextTransactionRejectsARecord(Optional.of(Stage.ABORT_TIMES_OUT));
    }

    /**
     * The next transaction is aborted by a fence from outside ({@code Admin.fenceProducers} on the task's id) between
     * its sends and its commit: the task's commit is refused, it initialises again and writes 15..19 again; the fence's
     * abort took C's records 10..14 on the target with it.
     */
    @Test
    void writesAgainItsCommitLeftOpenOnTheTargetWhenAFenceFromOutsideAbortsItsNextTransactionThere() {
        assertCopiedOnceWhenTheNextTransactionEndsAt(LeftOpenOn.TARGET, Stage.FENCE_BEFORE_COMMIT);
    }

    /**
     * The commit of the next transaction times out (as when the coordinator does not answer within
     * {@code max.block.ms}): its outcome unknown, the task initialises its slot again, and that
     * {@code initTransactions} aborts the transaction, C's records 10..14 on the target with it.
     */
    @Test
    void writesAgainItsCommitLeftOpenOnTheTargetWhenTheCommitOfItsNextTransactionThereTimesOut() {
        assertCopiedOnceWhenTheNextTransactionEndsAt(LeftOpenOn.TARGET, Stage.COMMIT_TIMES_OUT);
    }

    /**
     * C left open on progress partition 0 instead (the target on node 1, where C's markers were written): the commit
     * of the next transaction, its progress record sent, times out; the task's next {@code initTransactions} aborts
     * it, C's progress record with it, while C's records 10..14 stay committed on the target. A task that then goes
     * by its progress writes them again. (A record the broker rejects cannot stage this: the records are flushed
     * before any progress record is sent, design 2.7.1 rule V.2, so that abort never writes progress partition 0.)
     */
    @Test
    void copiesOnceWhenTheCommitOfItsNextTransactionTimesOutWithItsCommitLeftOpenOnTheProgressPartition() {
        assertCopiedOnceWhenTheNextTransactionEndsAt(LeftOpenOn.PROGRESS, Stage.COMMIT_TIMES_OUT);
    }

    /**
     * As above, the next transaction aborted by a fence from outside between its sends (its progress record among
     * them) and its commit.
     */
    @Test
    void copiesOnceWhenAFenceFromOutsideAbortsItsNextTransactionWithItsCommitLeftOpenOnTheProgressPartition() {
        assertCopiedOnceWhenTheNextTransactionEndsAt(LeftOpenOn.PROGRESS, Stage.FENCE_BEFORE_COMMIT);
    }

    /** Where commit C is left open: the topic of the partition on node 2 while C commits. */
    private enum LeftOpenOn {
        /** Target partition 0 on node 2, progress partition 0 on node 1. */
        TARGET,
        /** Progress partition 0 on node 2, the target on node 1. */
        PROGRESS
    }

    /**
     * Leaves C open on {@code on}, has the task copy 15..19 with {@code stage} armed for the next transaction, and
     * checks that each record then stands once on the target, none dead-lettered.
     */
    private void assertCopiedOnceWhenTheNextTransactionEndsAt(LeftOpenOn on, Stage stage) {
        TaskFixture fixture = fixture();
        try (StagedTask task = commitLeftOpen(fixture, on)) {
            copyEndingAt(task, stage, records(fixture.source, 0, 15, 20));
        }

        assertCopiedOnce(fixture, values(0, 20), List.of());
    }

    /**
     * Leaves C open on the target, makes the target compacted, has the task copy 15..19 with 17 without a key (the
     * broker rejects it, the transaction aborts) and {@code abortEnds} armed, and checks that each record then stands
     * once on the target, 17 once in the dead-letter topic.
     */
    private void assertCopiedOnceWhenTheNextTransactionRejectsARecord(Optional<Stage> abortEnds) throws Exception {
        TaskFixture fixture = fixture();
        try (StagedTask task = commitLeftOpen(fixture, LeftOpenOn.TARGET)) {
            compactTheTarget(fixture);
            List<SinkRecord> next = withoutKeyAt(17, records(fixture.source, 0, 15, 20));
            abortEnds.ifPresentOrElse(stage -> copyEndingAt(task, stage, next), () -> task.copy(next));
        }

        assertCopiedOnce(fixture, values(0, 20, 17L), List.of("17"));
    }

    /** Has {@code task} copy {@code next} with {@code stage} armed, and checks that its transaction ended there. */
    private static void copyEndingAt(StagedTask task, Stage stage, List<SinkRecord> next) {
        task.ends.arm(stage);
        task.copy(next);
        assertThat(task.ends.staged()).as("the next transaction ended at %s", stage).endsWith(stage);
    }

    private TaskFixture fixture() {
        // each put commits; the producer's up-front checks keep the target's config from before it became compacted
        // a progress read held back fails the task within 30 s, not the default 5 minutes
        return new TaskFixture(cluster.first, "live", "commit.interval.ms", "0", "progress.read.timeout.ms", "5000",
                "transient.errors.timeout.ms", "30000", "target.producer.transaction.timeout.ms", "20000",
                "target.producer.txn.send.topic.metadata.max.age.ms", "600000");
    }

    /** The fixture's topics placed for {@code on}, and a running task whose commit C of 10..14 is left open there. */
    private StagedTask commitLeftOpen(TaskFixture fixture, LeftOpenOn on) {
        if (on == LeftOpenOn.TARGET) {
            cluster.createTopics(fixture, 2, 1);
            return StagedTask.withCommitLeftOpen(cluster, fixture, new TopicPartition(fixture.target, 0));
        }
        cluster.createTopics(fixture, 1, 2);
        return StagedTask.withCommitLeftOpen(cluster, fixture, new TopicPartition(fixture.progress, 0));
    }

    private void assertCopiedOnce(TaskFixture fixture, List<String> expected, List<String> deadLettered) {
        assertThat(TestData.values(committed(cluster.first, fixture.target)))
                .as("each record once on the target read_committed: none lost to the abort, none twice")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(committed(cluster.first, fixture.dlq))
                .extracting(letter -> header(letter, DeadLetterHeaders.CONNECT_OFFSET))
                .as("the rejected records, each dead-lettered once").containsExactlyInAnyOrderElementsOf(deadLettered);
    }

    private void compactTheTarget(TaskFixture fixture) throws Exception {
        cluster.admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, fixture.target),
                List.of(new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
    }

    /** {@code batch} with the record of source offset {@code offset} without a key. */
    private static List<SinkRecord> withoutKeyAt(long offset, List<SinkRecord> batch) {
        List<SinkRecord> changed = new ArrayList<>(batch);
        changed.replaceAll(r -> r.kafkaOffset() == offset
                ? sinkRecord(r.topic(), r.kafkaPartition(), offset, null, bytes("v" + offset), r.timestamp()) : r);
        return changed;
    }
}
