package dev.quarantine.txn;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The record gate of IGNORE_SEND_ERRORS alone, per record, against the part of {@code KafkaProducer.send} it sits
 * beside: {@code raw} is what the producer does with the record's key, value and headers anyway (its serializers,
 * {@code headers().toArray()}); {@code wrapped} is the same as {@link TxnSendProducer} runs it: the gate (serialize,
 * check against the producer's limits and the topic's cached metadata) and then the producer's serializers, which
 * get the gate's bytes handed over. The difference is the gate's cost; {@code -prof gc} shows what it allocates.
 *
 * <p>The gate is package-private (users never see it), hence this benchmark's package. The topic's metadata comes
 * from a fixed describer, as the admin client would give it for the throughput benchmark's topic, so no broker is
 * needed. Shapes (the {@code shape} parameter): {@code Bytes} (byte[] value of 1 KiB, no key: the throughput
 * benchmark, Kafka Streams and the sink use ByteArraySerializer), {@code StreamsLike} (byte[] key and value, a
 * timestamp and three headers), and {@code Strings} (StringSerializer key and 1 KiB value: the bytes are handed over
 * instead of made twice).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar RecordGate -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RecordGateBenchmark {

    private static final String TOPIC = "bench-topic";
    private static final int VALUE_BYTES = 1024;

    /** The kind of record measured; see the class comment. */
    @Param({"Bytes", "StreamsLike", "Strings"})
    public String shape;

    private Shape<?, ?> subject;

    /** One kind of record, with the gate and the producer-side serializers TxnSendProducer would build for it. */
    private static final class Shape<K, V> {
        final ProducerRecord<K, V> record;
        final RecordGate<K, V> gate;
        final Serializer<K> rawKeys;
        final Serializer<V> rawValues;
        final Serializer<K> producerKeys;
        final Serializer<V> producerValues;

        Shape(ProducerRecord<K, V> record, Serializer<K> keys, Serializer<V> values) {
            this.record = record;
            this.rawKeys = keys;
            this.rawValues = values;
            RecordSerializer<K, V> serializer = RecordSerializer.reusing(Map.of(), keys, values);
            this.producerKeys = serializer.keyForProducer();
            this.producerValues = serializer.valueForProducer();
            TopicMetadataCache topics = new TopicMetadataCache(new FixedTopic(), Duration.ofMinutes(10),
                    Duration.ofSeconds(10), Duration.ZERO);
            int maxRequestSize = (int) ProducerConfig.configDef().defaultValues()
                    .get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
            long bufferMemory = (long) ProducerConfig.configDef().defaultValues()
                    .get(ProducerConfig.BUFFER_MEMORY_CONFIG);
            this.gate = new RecordGate<>(serializer, new RecordChecks(maxRequestSize, bufferMemory, topics), topics);
        }

        void raw(Blackhole hole) {
            serialize(hole, rawKeys, rawValues);
        }

        void wrapped(Blackhole hole) {
            hole.consume(gate.admit(record));
            try {
                serialize(hole, producerKeys, producerValues);
            } finally {
                gate.sent();
            }
        }

        private void serialize(Blackhole hole, Serializer<K> keys, Serializer<V> values) {
            hole.consume(keys.serialize(record.topic(), record.headers(), record.key()));
            hole.consume(values.serialize(record.topic(), record.headers(), record.value()));
            hole.consume(record.headers().toArray());
        }
    }

    /** The throughput benchmark's topic: 3 partitions, max.message.bytes=32768, CreateTime, Kafka's defaults. */
    private static final class FixedTopic implements TopicDescriber {
        @Override
        public CompletableFuture<TopicInfo> describe(String topic) {
            return CompletableFuture.completedFuture(new TopicInfo(true, 3, OptionalInt.of(32 * 1024), false, true,
                    OptionalLong.of(Long.MAX_VALUE), OptionalLong.of(3_600_000L)));
        }

        @Override
        public CompletableFuture<Boolean> autoCreateEnabled() {
            return CompletableFuture.completedFuture(false);
        }

        @Override
        public void close() {
        }
    }

    @Setup
    public void setUp() {
        subject = switch (shape) {
            case "Bytes" -> new Shape<>(new ProducerRecord<byte[], byte[]>(TOPIC, new byte[VALUE_BYTES]),
                    new ByteArraySerializer(), new ByteArraySerializer());
            case "StreamsLike" -> new Shape<>(new ProducerRecord<>(TOPIC, null, System.currentTimeMillis(),
                    new byte[16], new byte[VALUE_BYTES], new RecordHeaders(streamsHeaders())),
                    new ByteArraySerializer(), new ByteArraySerializer());
            case "Strings" -> new Shape<>(new ProducerRecord<>(TOPIC, "key-0001", "v".repeat(VALUE_BYTES)),
                    new StringSerializer(), new StringSerializer());
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        };
    }

    private static Header[] streamsHeaders() {
        return new Header[] {new RecordHeader("__streams.errors.topic", "input".getBytes(StandardCharsets.UTF_8)),
            new RecordHeader("trace-id", new byte[16]), new RecordHeader("source", new byte[8])};
    }

    @TearDown
    public void tearDown() {
        subject.gate.close();
    }

    @Benchmark
    public void raw(Blackhole hole) {
        subject.raw(hole);
    }

    @Benchmark
    public void wrapped(Blackhole hole) {
        subject.wrapped(hole);
    }
}
