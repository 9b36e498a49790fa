package dev.quarantine.streams.query;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;

import dev.quarantine.sandbox.FreePorts;
import dev.quarantine.sandbox.LocalKafka;

/**
 * One instance of the test Streams application: a table over a two-partition topic, materialized twice, in an
 * in-memory store ({@link #MEMORY}) and a RocksDB store ({@link #ROCKS}). Instances of the same application id share
 * the partitions; each has its own state dir and {@code application.server} on 127.0.0.1 (never bound: only
 * metadata).
 */
final class QueryApp implements AutoCloseable {

    static final String MEMORY = "table-memory";
    static final String ROCKS = "table-rocks";
    static final StoreQueryParameters<ReadOnlyKeyValueStore<String, String>> MEMORY_STORE =
            StoreQueryParameters.fromNameAndType(MEMORY, QueryableStoreTypes.keyValueStore());
    static final StoreQueryParameters<ReadOnlyKeyValueStore<String, String>> ROCKS_STORE =
            StoreQueryParameters.fromNameAndType(ROCKS, QueryableStoreTypes.keyValueStore());

    final HostInfo host = new HostInfo("127.0.0.1", FreePorts.next());
    final KafkaStreams streams;
    final StoreQueries queries;

    QueryApp(LocalKafka kafka, String applicationId, String topic, Path stateDir) {
        streams = new KafkaStreams(topology(topic), props(kafka, applicationId, stateDir));
        queries = StoreQueries.of(streams, host);
    }

    /** Puts {@code count} records {@code key-i -> value-i} on {@code topic}, spread over its partitions by key. */
    static void produce(LocalKafka kafka, String topic, int count) {
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(kafka.clientProps(), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i));
            }
            producer.flush();
        }
    }

    /** The in-memory store through {@link StoreQueries}, locating keys with their serializer. */
    ReadOnlyKeyValueStore<String, String> memoryStore() {
        return queries.store(MEMORY_STORE, new StringSerializer());
    }

    int activeTasks() {
        return streams.metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
    }

    QueryApp start() {
        streams.start();
        return this;
    }

    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
    }

    private static org.apache.kafka.streams.Topology topology(String topic) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(topic, Consumed.with(Serdes.String(), Serdes.String()),
                        Materialized.<String, String>as(Stores.inMemoryKeyValueStore(MEMORY))
                                .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                .toStream()
                .toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(ROCKS)
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
        return builder.build();
    }

    private Properties props(LocalKafka kafka, String applicationId, Path stateDir) {
        Properties props = kafka.clientProps();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, host.host() + ":" + host.port());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 0);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        // a newcomer with an empty store counts as caught up: tasks move in the first rebalance, no warm-up probing
        props.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, Long.MAX_VALUE);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 300);
        return props;
    }
}
