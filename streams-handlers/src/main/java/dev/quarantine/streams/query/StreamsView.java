package dev.quarantine.streams.query;

import java.util.Collection;
import java.util.Set;

import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;

/** The parts of {@link KafkaStreams} that classifying a store error needs; a small fake replaces it in unit tests. */
interface StreamsView {

    KafkaStreams.State state();

    <T> T store(StoreQueryParameters<T> parameters);

    <R> StateQueryResult<R> query(StateQueryRequest<R> request);

    Collection<StreamsMetadata> metadataForStore(String storeName);

    KeyQueryMetadata metadataForKey(String storeName, Object key, Serializer<Object> keySerializer);

    /** The ids of the tasks this instance runs now: active ones, and standby ones too if {@code withStandbys}. */
    Set<TaskId> localTasks(boolean withStandbys);

    static StreamsView of(KafkaStreams streams) {
        return new KafkaStreamsView(streams);
    }
}
