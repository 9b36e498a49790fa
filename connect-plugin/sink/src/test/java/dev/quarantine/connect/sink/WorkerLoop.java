package dev.quarantine.connect.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Delivers records to an in-process task as Connect's WorkerSinkTask does: each iteration first applies the seeks
 * the task asked for to the consumer's positions ({@code rewind()}), then delivers a batch: the last one again,
 * unchanged, when its put threw a RetriableException (Connect keeps it for redelivery, whatever was sought), else
 * up to {@code perPoll} records of each partition from its position.
 */
final class WorkerLoop {

    private final Consumer<List<SinkRecord>> put;
    private final FakeSinkTaskContext context;
    private final Map<TopicPartition, List<SinkRecord>> source;
    private final Map<TopicPartition, Long> positions = new HashMap<>();
    private List<SinkRecord> retained;
    int retriablePuts;

    /** {@code source}: every partition's records, each list starting at offset 0. */
    WorkerLoop(TransactionalKafkaSinkTask task, FakeSinkTaskContext context,
               Map<TopicPartition, List<SinkRecord>> source) {
        this(task::put, context, source);
    }

    /**
     * Delivering through {@code put} (a task's handler's, in process); a partition's list may grow between
     * iterations, as a source partition does.
     */
    WorkerLoop(Consumer<List<SinkRecord>> put, FakeSinkTaskContext context,
               Map<TopicPartition, List<SinkRecord>> source) {
        this.put = put;
        this.context = context;
        this.source = source;
        source.keySet().forEach(partition -> positions.put(partition, 0L));
    }

    /** One poll and put, {@code perPoll} records of each partition at most (a map entry overrides it). */
    void iteration(int perPoll, Map<TopicPartition, Integer> perPartition) {
        positions.putAll(context.seeks);
        context.seeks.clear();
        List<SinkRecord> batch = retained != null ? retained : poll(perPoll, perPartition);
        try {
            put.accept(batch);
            retained = null;
        } catch (RetriableException e) {
            retriablePuts++;
            retained = batch;
        }
    }

    /**
     * Iterates ({@code perPoll} records of each partition a poll) until {@link #drained()}, {@code iterations} times
     * at most; whether it got there.
     */
    boolean drain(int perPoll, int iterations) {
        for (int i = 0; i < iterations && !drained(); i++) {
            iteration(perPoll, Map.of());
        }
        return drained();
    }

    boolean drained() {
        return retained == null && context.seeks.isEmpty() && source.entrySet().stream()
                .allMatch(e -> positions.get(e.getKey()) >= e.getValue().size());
    }

    private List<SinkRecord> poll(int perPoll, Map<TopicPartition, Integer> perPartition) {
        List<SinkRecord> batch = new ArrayList<>();
        source.forEach((partition, records) -> {
            int from = (int) Math.min(positions.get(partition), records.size());
            int to = Math.min(records.size(), from + perPartition.getOrDefault(partition, perPoll));
            batch.addAll(records.subList(from, to));
            positions.put(partition, (long) to);
        });
        return batch;
    }
}
