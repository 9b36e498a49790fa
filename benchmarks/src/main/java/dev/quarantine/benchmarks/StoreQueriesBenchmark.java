package dev.quarantine.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import dev.quarantine.sandbox.FreePorts;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.streams.query.StoreQueries;

/**
 * {@code StoreQueries} against Kafka's own store, side by side: a get of a present key, and an iteration over all
 * {@value #ENTRIES} entries, on the in-memory store of a real, running Kafka Streams instance (a table over a
 * one-partition topic on a local broker). Goals: under 1 µs overhead per get, iteration within 1.05 × raw.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreQueriesBenchmark {

    static final int ENTRIES = 100_000;
    private static final String STORE = "bench-table";
    private static final StoreQueryParameters<ReadOnlyKeyValueStore<String, String>> PARAMETERS =
            StoreQueryParameters.fromNameAndType(STORE, QueryableStoreTypes.keyValueStore());
    private static final int KEY_MASK = (1 << 16) - 1;

    private LocalKafka kafka;
    private KafkaStreams streams;
    private Path stateDir;
    private ReadOnlyKeyValueStore<String, String> raw;
    private ReadOnlyKeyValueStore<String, String> wrapped;
    private final String[] keys = new String[KEY_MASK + 1];
    private int next;

    @Setup(Level.Trial)
    public void startStreams() throws Exception {
        kafka = LocalKafka.create().start();
        String topic = "bench-input";
        kafka.createTopic(topic, 1, Map.of());
        produce(topic);
        stateDir = Files.createTempDirectory("bench-streams-");
        HostInfo self = new HostInfo("127.0.0.1", FreePorts.next());
        streams = new KafkaStreams(topology(topic), props(self));
        streams.start();
        awaitLoaded();
        raw = streams.store(PARAMETERS);
        wrapped = StoreQueries.of(streams, self).store(PARAMETERS, new StringSerializer());
        for (int i = 0; i < keys.length; i++) {
            keys[i] = key((int) ((i * 2_654_435_761L) % ENTRIES));
        }
    }

    @TearDown(Level.Trial)
    public void stopStreams() throws Exception {
        if (streams != null) {
            streams.close(Duration.ofSeconds(30));
        }
        if (kafka != null) {
            kafka.close();
        }
        if (stateDir != null) {
            try (Stream<Path> paths = Files.walk(stateDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Benchmark
    public String rawGet() {
        return raw.get(keys[next++ & KEY_MASK]);
    }

    @Benchmark
    public String wrappedGet() {
        return wrapped.get(keys[next++ & KEY_MASK]);
    }

    @Benchmark
    public int rawIterateAll(Blackhole sink) {
        return drain(raw, sink);
    }

    @Benchmark
    public int wrappedIterateAll(Blackhole sink) {
        return drain(wrapped, sink);
    }

    private static int drain(ReadOnlyKeyValueStore<String, String> store, Blackhole sink) {
        int count = 0;
        try (KeyValueIterator<String, String> iterator = store.all()) {
            while (iterator.hasNext()) {
                KeyValue<String, String> entry = iterator.next();
                sink.consume(entry);
                count++;
            }
        }
        if (count != ENTRIES) {
            throw new IllegalStateException("iterated " + count + " entries, expected " + ENTRIES);
        }
        return count;
    }

    private static String key(int i) {
        return "key-" + i;
    }

    private void produce(String topic) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < ENTRIES; i++) {
                producer.send(new ProducerRecord<>(topic, key(i), "value-" + i));
            }
            producer.flush();
        }
    }

    private void awaitLoaded() {
        Instant deadline = Instant.now().plusSeconds(120);
        while (true) {
            if (streams.state() == KafkaStreams.State.RUNNING) {
                try {
                    if (streams.store(PARAMETERS).approximateNumEntries() == ENTRIES) {
                        return;
                    }
                } catch (RuntimeException e) {
                    // not queryable yet
                }
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("the benchmark store did not load " + ENTRIES + " entries within 120 s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static org.apache.kafka.streams.Topology topology(String topic) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(topic, Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String>as(Stores.inMemoryKeyValueStore(STORE))
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
        return builder.build();
    }

    private Properties props(HostInfo self) {
        Properties props = kafka.clientProps();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "store-queries-benchmark");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        return props;
    }
}
