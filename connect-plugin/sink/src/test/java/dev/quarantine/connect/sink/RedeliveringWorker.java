package dev.quarantine.connect.sink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * Delivers records of source partitions to an in-process task as Connect's WorkerSinkTask does, for the paths where
 * its order matters: each round first applies the seeks the task asked for (its rewind at the start of a poll), then
 * puts the batch that failed with a RetriableException again if there is one (fetched before those seeks), else up
 * to {@code perPartition} records of each partition from its consumer position, which the fetch moves on. The
 * records are {@link TestData#records} ({@code v<offset>}) up to each partition's end.
 */
final class RedeliveringWorker {

    private final SinkTask task;
    private final FakeSinkTaskContext context;
    private final Map<TopicPartition, Long> position = new LinkedHashMap<>();
    private final Map<TopicPartition, Long> end;
    private List<SinkRecord> failedBatch;
    private int retriableFailures;

    /** A worker whose consumer is at {@code position} of each partition, holding records up to {@code end}. */
    RedeliveringWorker(SinkTask task, FakeSinkTaskContext context, Map<TopicPartition, Long> position,
                       Map<TopicPartition, Long> end) {
        this.task = task;
        this.context = context;
        this.position.putAll(position);
        this.end = end;
    }

    /** The batch a put failed with, to be delivered again first, as after a RetriableException of that put. */
    void failed(List<SinkRecord> batch) {
        failedBatch = batch;
        retriableFailures++;
    }

    /** One poll and put; returns the records put. */
    List<SinkRecord> round(int perPartition) {
        position.putAll(context.seeks);
        context.seeks.clear();
        List<SinkRecord> batch = failedBatch;
        if (batch == null) {
            batch = new ArrayList<>();
            for (Map.Entry<TopicPartition, Long> at : position.entrySet()) {
                TopicPartition partition = at.getKey();
                long to = Math.min(end.get(partition), at.getValue() + perPartition);
                batch.addAll(TestData.records(partition.topic(), partition.partition(), at.getValue(), to));
                at.setValue(Math.max(at.getValue(), to));
            }
        }
        try {
            task.put(batch);
            failedBatch = null;
        } catch (RetriableException e) {
            failed(batch);
        }
        return batch;
    }

    /** How many puts failed with a RetriableException. */
    int retriableFailures() {
        return retriableFailures;
    }
}
