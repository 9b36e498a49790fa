package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.records;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.StagedEnds.Stage;
import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;

/**
 * A task's handler, in process, whose slot producers are {@link StagedEnds}, fed by a {@link WorkerLoop} from the
 * source partitions of its fixture: {@link #copy} appends records to their source partitions and delivers until the
 * worker has nothing left to deliver. Closing it stops the task as Connect does (its producers closed).
 */
final class StagedTask implements AutoCloseable {

    /** Worker iterations a {@link #copy} may take before it fails: an opening, a redo or a retry each take a few. */
    private static final int ITERATIONS = 200;

    final TopicPartition partition;
    final StagedEnds ends;
    private final SinkTaskHandler handler;
    private final Map<TopicPartition, List<SinkRecord>> sources = new LinkedHashMap<>();
    private final WorkerLoop worker;

    /**
     * Started over {@code fixture}'s topics with its config and {@code overrides}, source partition 0 opened; its
     * producers' stages look at {@code leaderless} after each skip.
     */
    StagedTask(TwoBrokers cluster, TaskFixture fixture, TopicPartition leaderless, String... overrides) {
        this(cluster, fixture, leaderless, 1, overrides);
    }

    /** As above, source partitions 0..{@code sourcePartitions}-1 opened. */
    StagedTask(TwoBrokers cluster, TaskFixture fixture, TopicPartition leaderless, int sourcePartitions,
               String... overrides) {
        partition = new TopicPartition(fixture.source, 0);
        ends = new StagedEnds(cluster, leaderless);
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        for (int p = 0; p < sourcePartitions; p++) {
            sources.put(new TopicPartition(fixture.source, p), new ArrayList<>());
        }
        context.assigned.addAll(sources.keySet());
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(fixture.config(overrides));
        handler = TaskFixture.handler(config, fixture.progress, config.progressReadTimeout(), context, ends,
                Optional.empty());
        handler.open(List.copyOf(sources.keySet()));
        worker = new WorkerLoop(handler::put, context, sources);
    }

    /**
     * A task that copied 0..9, then committed 10..14 (C) with node 2 down: C's markers skipped on {@code leaderless}
     * (on node 2), its config {@code overrides} the fixture's. Asserts the premise: C's first record there is held
     * back.
     */
    static StagedTask withCommitLeftOpen(TwoBrokers cluster, TaskFixture fixture, TopicPartition leaderless,
                                         String... overrides) {
        StagedTask task = new StagedTask(cluster, fixture, leaderless, overrides);
        try {
            task.copy(records(fixture.source, 0, 0, 10));
            task.ends.arm(Stage.SKIP_MARKERS_AT_COMMIT);
            task.copy(records(fixture.source, 0, 10, 15));
            assertThat(task.ends.afterSkips()).as("the premise: C committed, its markers skipped on %s, where its"
                    + " first record is held back", leaderless).containsExactly(Optional.of(AtFirst.HELD_BACK));
            return task;
        } catch (RuntimeException | AssertionError e) {
            task.close();
            throw e;
        }
    }

    /**
     * Appends {@code records} (the next offsets of their source partitions) and delivers until all are taken.
     */
    void copy(List<SinkRecord> records) {
        append(records);
        assertThat(worker.drain(10, ITERATIONS)).as("the worker delivered every record of %s",
                sources.keySet()).isTrue();
    }

    private void append(List<SinkRecord> records) {
        records.forEach(r -> sources.get(new TopicPartition(r.topic(), r.kafkaPartition())).add(r));
    }

    /** Appends {@code records} and delivers them once (the first ten at most), whatever the task does with them. */
    void deliverOnce(List<SinkRecord> records) {
        append(records);
        worker.iteration(10, Map.of());
    }

    @Override
    public void close() {
        handler.close();
    }

    /** {@code v<from>..v<to-1>} but those of the offsets {@code except}, in order. */
    static List<String> values(long from, long to, Long... except) {
        List<Long> skipped = List.of(except);
        return LongStream.range(from, to).filter(offset -> !skipped.contains(offset)).mapToObj(offset -> "v" + offset)
                .toList();
    }
}
