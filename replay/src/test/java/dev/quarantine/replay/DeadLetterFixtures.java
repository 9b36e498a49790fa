package dev.quarantine.replay;

import static dev.quarantine.sandbox.Utf8.bytes;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.streams.DeadLetterHandlerConfig;
import dev.quarantine.streams.StreamsTestProps;
import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder;

/**
 * Fills dead-letter topics for the integration tests: Kafka Streams dead letters written by a real exactly_once_v2
 * app with our handler and supplier, and Kafka Connect dead letters built the way our sink builds them. Every
 * original record carries a {@code trace-id} header equal to its key, which a replay must bring back.
 */
final class DeadLetterFixtures {

    static final Duration DEADLINE = Duration.ofSeconds(180);
    static final int SMALL_TOPIC_MAX_BYTES = 2_000;
    static final String TRACE = "trace-id";

    private DeadLetterFixtures() {
    }

    /** A value larger than {@link #SMALL_TOPIC_MAX_BYTES} that still names its record. */
    static String largeValue(String key) {
        return key + ":" + "x".repeat(3_000);
    }

    /**
     * Writes {@code count} Connect-style dead letters (keys {@code <prefix>-0..}) as our sink does: source
     * {@code input}, target {@code output}, connector {@code connector}, in one transaction; the error of each from
     * {@code errors}.
     */
    static void connectLetters(LocalKafka kafka, String dlq, String input, String output, String prefix, int count,
                               IntFunction<Throwable> errors, String connector) {
        DeadLetterRecordBuilder builder = new DeadLetterRecordBuilder(dlq, DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                1_000_000);
        try (KafkaProducer<byte[], byte[]> producer = transactional(kafka, "fixture-" + prefix)) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < count; i++) {
                String key = prefix + "-" + i;
                DeadLetter letter = DeadLetter.of(bytes(key), bytes(largeValue(key)),
                                new RecordHeaders().add(TRACE, bytes(key)).toArray(), errors.apply(i))
                        .source(input, 0, i).target(output, 0)
                        .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, connector)
                        .context(DeadLetterHeaders.CONNECT_TASK_ID, "0")
                        .context(DeadLetterHeaders.CONNECT_STAGE, "TASK_PUT");
                producer.send(builder.build(letter));
            }
            producer.commitTransaction();
        }
    }

    /** Writes a record with the given headers only, as Kafka Connect's own DeadLetterQueueReporter might. */
    static void rawLetter(LocalKafka kafka, String dlq, String key, String value, Header... headers) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(dlq, null, null, bytes(key), bytes(value), List.of(headers)));
        }
    }

    /**
     * Runs an exactly_once_v2 app with our handler over {@code count} inputs (keys {@code <prefix>-i}): input
     * {@code i % 5} in 0..2 makes an output larger than {@code output}'s max.message.bytes (RecordTooLargeException),
     * 3 a null-keyed record into the compacted topic (InvalidRecordException), 4 a good output. Returns when every
     * dead letter is committed and the app is closed.
     */
    static void streamsLetters(LocalKafka kafka, StreamsTopics topics, String applicationId, Path stateDir, int count)
            throws InterruptedException {
        List<ProducerRecord<String, String>> inputs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = topics.prefix + "-" + i;
            inputs.add(new ProducerRecord<>(topics.input, null, key, String.valueOf(i),
                    new RecordHeaders().add(TRACE, bytes(key))));
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(kafka.clientProps(), new StringSerializer(),
                new StringSerializer())) {
            inputs.forEach(producer::send);
        }
        int poison = count / 5 * 4;
        KafkaStreams app = new KafkaStreams(topics.topology(), streamsProps(kafka, topics, applicationId, stateDir));
        try {
            app.start();
            Await.until(poison + " dead letters from the Streams app", DEADLINE, () ->
                    TopicReader.readCommitted(kafka, topics.dlq, DEADLINE).size() >= poison);
        } finally {
            app.close(Duration.ofSeconds(30));
        }
    }

    /** The topics of {@link #streamsLetters}. */
    static final class StreamsTopics {
        final String prefix;
        final String input;
        final String output;
        final String compacted;
        final String dlq;

        StreamsTopics(String prefix, String dlq) {
            this.prefix = prefix;
            this.input = prefix + "-input";
            this.output = prefix + "-output";
            this.compacted = prefix + "-compacted";
            this.dlq = dlq;
        }

        void create(LocalKafka kafka) {
            kafka.createTopic(input, 2, Map.of());
            kafka.createTopic(output, 2, Map.of("max.message.bytes", String.valueOf(SMALL_TOPIC_MAX_BYTES)));
            kafka.createTopic(compacted, 1, Map.of("cleanup.policy", "compact"));
        }

        Topology topology() {
            StreamsBuilder builder = new StreamsBuilder();
            KStream<String, String> in = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
            in.filter((k, v) -> Integer.parseInt(v) % 5 != 3)
                    .mapValues((k, v) -> Integer.parseInt(v) % 5 == 4 ? "good-" + k : largeValue(k))
                    .to(output, Produced.with(Serdes.String(), Serdes.String()));
            in.filter((k, v) -> Integer.parseInt(v) % 5 == 3).selectKey((k, v) -> (String) null)
                    .to(compacted, Produced.with(Serdes.String(), Serdes.String()));
            return builder.build();
        }
    }

    /** Sets {@code max.message.bytes} of {@code topics}: the fix of a RecordTooLargeException. */
    static void raiseMaxMessageBytes(LocalKafka kafka, int bytes, String... topics) throws Exception {
        setMaxMessageBytes(kafka, bytes, topics);
    }

    /** Sets {@code max.message.bytes} of {@code topics} lower: the cause of a RecordTooLargeException. */
    static void lowerMaxMessageBytes(LocalKafka kafka, int bytes, String... topics) throws Exception {
        setMaxMessageBytes(kafka, bytes, topics);
    }

    private static void setMaxMessageBytes(LocalKafka kafka, int bytes, String... topics) throws Exception {
        try (Admin admin = kafka.admin()) {
            Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
            for (String topic : topics) {
                changes.put(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(new AlterConfigOp(
                        new ConfigEntry("max.message.bytes", String.valueOf(bytes)), AlterConfigOp.OpType.SET)));
            }
            admin.incrementalAlterConfigs(changes).all().get(30, TimeUnit.SECONDS);
        }
    }

    static List<ConsumerRecord<byte[], byte[]>> committed(LocalKafka kafka, String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(60));
    }

    static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static KafkaProducer<byte[], byte[]> transactional(LocalKafka kafka, String transactionalId) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static Properties streamsProps(LocalKafka kafka, StreamsTopics topics, String applicationId,
                                           Path stateDir) {
        Properties props = StreamsTestProps.quarantined(kafka, applicationId, stateDir, topics.dlq);
        props.put(DeadLetterHandlerConfig.DLQ_MAX_RATIO_CONFIG, "1.0");
        return props;
    }
}
