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

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the classes whose task's transaction is left hanging by skipped markers (docs/design/sink-ownership.md 2.7.1,
 * "When Kafka 4.4 skips markers") share: the test JVM's {@link TwoBrokers} ({@link TwoBrokers#shared}) at the
 * class's {@code transaction.version}, a fresh fixture per test (its topics placed on the nodes the test names), a
 * task restarted over it as a worker feeds one, and the check of the promise, read {@code read_committed}: each
 * source record once on the target, none lost, none twice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StoppedTaskChecks {

    TwoBrokers cluster;
    TaskFixture fixture;

    /** The cluster's {@code transaction.version}: Kafka's default when empty. */
    Optional<Short> transactionVersion() {
        return Optional.empty();
    }

    @BeforeAll
    void start() {
        cluster = TwoBrokers.shared(transactionVersion());
    }

    @AfterEach
    void stopTasks() {
        if (fixture != null) {
            fixture.stopTasks();
        }
    }

    /**
     * A fresh fixture, its target partition on node {@code targetNode} and progress partition 0 on
     * {@code progressNode}.
     */
    void createTopics(int targetNode, int progressNode) {
        createTopics(List.of(targetNode), progressNode);
    }

    /** As {@link #createTopics(int, int)}, target partition {@code i} on {@code targetNodes.get(i)}. */
    void createTopics(List<Integer> targetNodes, int progressNode) {
        fixture = fixture();
        cluster.createTopics(fixture, targetNodes, progressNode);
    }

    TopicPartition targetPartition() {
        return new TopicPartition(fixture.target, 0);
    }

    TopicPartition progressPartition() {
        return new TopicPartition(fixture.progress, 0);
    }

    /** A task whose commit C of 10..14 is left open on {@code leaderless} ({@link StagedTask}), stopped. */
    void commitLeftOpenAndStop(TopicPartition leaderless) {
        StagedTask.withCommitLeftOpen(cluster, fixture, leaderless).close();
    }

    TaskFixture fixture() {
        // each put commits: the test follows one transaction at a time
        // a progress read held back fails the task within 30 s, not the default 5 minutes
        return new TaskFixture(cluster.first, "hang", "commit.interval.ms", "0", "progress.read.timeout.ms", "5000",
                "transient.errors.timeout.ms", "30000", "target.producer.transaction.timeout.ms", "20000");
    }

    /**
     * A task (Connect's, in process) started over the fixture, opening source partition 0 and fed its records
     * 0..{@code to}-1 from offset 0 as a worker does, until it has taken them all; left running.
     */
    TransactionalKafkaSinkTask copyWithARestartedTask(long to) {
        return copyWithARestartedTask(1, to);
    }

    /** As {@link #copyWithARestartedTask(long)}, over source partitions 0..{@code partitions}-1. */
    TransactionalKafkaSinkTask copyWithARestartedTask(int partitions, long to) {
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

    /**
     * Connect's offsets API (KIP-875) altering source partition 0's offset to {@code offset}, as the worker calls it.
     */
    void alterTo(long offset) {
        assertThat(new TransactionalKafkaSinkConnector().alterOffsets(fixture.config(),
                Map.of(new TopicPartition(fixture.source, 0), offset))).isTrue();
    }

    static <T> List<T> concat(List<T> first, List<T> then) {
        List<T> both = new ArrayList<>(first);
        both.addAll(then);
        return both;
    }

    /** A restarted task copies 0..19: {@link #assertCopiedOnce} of them. */
    void assertARestartedTaskCopiesEachRecordOnce() {
        copyWithARestartedTask(20);

        assertCopiedOnce(values(0, 20));
    }

    void assertCopiedOnce(List<String> expected) {
        assertThat(TestData.values(committed(cluster.first, fixture.target)))
                .as("each record once on the target read_committed: none lost, none twice")
                .containsExactlyInAnyOrderElementsOf(expected);
    }
}
