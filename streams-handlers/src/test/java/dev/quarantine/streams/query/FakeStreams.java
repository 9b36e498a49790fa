package dev.quarantine.streams.query;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.HostInfo;

/** A scriptable {@link StreamsView}: tests set the state, the metadata, the local tasks and what store/query do. */
final class FakeStreams implements StreamsView {

    static final HostInfo SELF = new HostInfo("127.0.0.1", 7001);
    static final HostInfo OTHER = new HostInfo("127.0.0.1", 7002);

    KafkaStreams.State state = KafkaStreams.State.RUNNING;
    final List<StreamsMetadata> storeMetadata = new ArrayList<>();
    KeyQueryMetadata keyMetadata = KeyQueryMetadata.NOT_AVAILABLE;
    Set<TaskId> localTasks = new HashSet<>(Set.of(new TaskId(0, 0), new TaskId(0, 1)));
    Object store;
    RuntimeException storeError;
    Function<StateQueryRequest<?>, StateQueryResult<?>> query;

    FakeStreams state(KafkaStreams.State state) {
        this.state = state;
        return this;
    }

    /** Declares that {@code host} runs the active tasks of {@code storeName} for the given partitions of topic "in". */
    FakeStreams hosts(HostInfo host, String storeName, int... partitions) {
        Set<TopicPartition> topicPartitions = new HashSet<>();
        for (int partition : partitions) {
            topicPartitions.add(new TopicPartition("in", partition));
        }
        storeMetadata.add(new Metadata(host, Set.of(storeName), topicPartitions));
        return this;
    }

    @Override
    public KafkaStreams.State state() {
        return state;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T store(StoreQueryParameters<T> parameters) {
        if (storeError != null) {
            throw storeError;
        }
        return (T) store;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> StateQueryResult<R> query(StateQueryRequest<R> request) {
        return (StateQueryResult<R>) query.apply(request);
    }

    @Override
    public Collection<StreamsMetadata> metadataForStore(String storeName) {
        return storeMetadata;
    }

    @Override
    public KeyQueryMetadata metadataForKey(String storeName, Object key, Serializer<Object> keySerializer) {
        keySerializer.serialize("in", key);
        return keyMetadata;
    }

    @Override
    public Set<TaskId> localTasks(boolean withStandbys) {
        return new HashSet<>(localTasks);
    }

    private record Metadata(HostInfo hostInfo, Set<String> stateStoreNames, Set<TopicPartition> topicPartitions)
            implements StreamsMetadata {

        @Override
        public Set<TopicPartition> standbyTopicPartitions() {
            return Set.of();
        }

        @Override
        public Set<String> standbyStateStoreNames() {
            return Set.of();
        }

        @Override
        public String host() {
            return hostInfo.host();
        }

        @Override
        public int port() {
            return hostInfo.port();
        }
    }
}
