package dev.quarantine.streams.query;

import java.util.Collection;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;

/** {@link StreamsView} over a real {@link KafkaStreams}: every call is one public Kafka Streams call. */
final class KafkaStreamsView implements StreamsView {

    private final KafkaStreams streams;

    KafkaStreamsView(KafkaStreams streams) {
        this.streams = Objects.requireNonNull(streams, "streams");
    }

    @Override
    public KafkaStreams.State state() {
        return streams.state();
    }

    @Override
    public <T> T store(StoreQueryParameters<T> parameters) {
        return streams.store(parameters);
    }

    @Override
    public <R> StateQueryResult<R> query(StateQueryRequest<R> request) {
        return streams.query(request);
    }

    @Override
    public Collection<StreamsMetadata> metadataForStore(String storeName) {
        return streams.streamsMetadataForStore(storeName);
    }

    @Override
    public KeyQueryMetadata metadataForKey(String storeName, Object key, Serializer<Object> keySerializer) {
        return streams.queryMetadataForKey(storeName, key, keySerializer);
    }

    @Override
    public Set<TaskId> localTasks(boolean withStandbys) {
        Set<TaskId> tasks = new HashSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            thread.activeTasks().stream().map(TaskMetadata::taskId).forEach(tasks::add);
            if (withStandbys) {
                thread.standbyTasks().stream().map(TaskMetadata::taskId).forEach(tasks::add);
            }
        }
        return tasks;
    }
}
