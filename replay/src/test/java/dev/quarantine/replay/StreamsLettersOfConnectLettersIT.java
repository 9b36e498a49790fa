package dev.quarantine.replay;

import static dev.quarantine.replay.DeadLetterFixtures.committed;
import static dev.quarantine.replay.DeadLetterFixtures.header;
import static dev.quarantine.replay.ReplayEngineIT.runToEnd;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.replay.letters.DeadLetterReader;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder;

/**
 * A record that was a Connect-style dead letter once (our sink's headers: {@code __connect.errors.*} naming an earlier
 * source, {@code __quarantine.target.topic} naming an earlier target) is read by a stock Kafka Streams 4.4 app, fails
 * to deserialize and is dead-lettered by Kafka Streams' own DLQ, which keeps the record's headers and appends its own.
 * The letter is read as Kafka Streams' (the family whose marker comes last), and a replay to the original destination
 * puts each record back into the Streams app's input partition, not the earlier source or target, even though the
 * allow-list would let it write there.
 */
@ExtendWith(LocalKafkaExtension.class)
class StreamsLettersOfConnectLettersIT {

    private static final int RECORDS = 20;
    private static final String INPUT = "relay-input";
    private static final String DLQ = "relay-dlq";
    private static final String EARLIER_SOURCE = "relay-earlier-source";
    private static final String EARLIER_TARGET = "relay-earlier-target";

    @TempDir
    Path stateDir;

    @Test
    void replaysAStreamsDeadLetterOfARecordWithConnectErrorHeadersToTheStreamsInput(LocalKafka kafka) {
        kafka.createTopic(INPUT, 2, Map.of());
        kafka.createTopic("relay-output", 1, Map.of());
        kafka.createTopic(DLQ, 1, Map.of());
        kafka.createTopic(EARLIER_SOURCE, 3, Map.of());
        kafka.createTopic(EARLIER_TARGET, 3, Map.of());
        List<ConsumerRecord<byte[], byte[]>> originals = produceUnreadableRecordsCarryingConnectErrorHeaders(kafka);
        runStreamsAppWithItsOwnDeadLetterQueue(kafka);
        List<ConsumerRecord<byte[], byte[]>> letters = committed(kafka, DLQ);
        assertThat(letters).hasSize(RECORDS).allSatisfy(letter -> {
            assertThat(header(letter, DeadLetterHeaders.CONNECT_TOPIC)).as("kept from the record")
                    .isEqualTo(EARLIER_SOURCE);
            assertThat(header(letter, DeadLetterHeaders.STREAMS_TOPIC)).isEqualTo(INPUT);
            assertThat(DeadLetterReader.read(letter.headers()).format()).isEqualTo(DeadLetterFormat.STREAMS);
        });

        ReplayProgress done = runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "relay-fix",
                ReplayConfig.DLQ_TOPIC_CONFIG, DLQ, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG,
                String.join("|", INPUT, EARLIER_SOURCE, EARLIER_TARGET)));

        assertThat(done.counts().replayed()).isEqualTo(RECORDS);
        assertThat(committed(kafka, EARLIER_SOURCE)).as("nothing replayed to the earlier source").isEmpty();
        assertThat(committed(kafka, EARLIER_TARGET)).as("nothing replayed to the earlier target").isEmpty();
        Map<String, ConsumerRecord<byte[], byte[]>> before = originals.stream()
                .collect(Collectors.toMap(r -> text(r.key()), Function.identity()));
        List<ConsumerRecord<byte[], byte[]>> replayed = committed(kafka, INPUT).stream()
                .filter(r -> r.headers().lastHeader(DeadLetterHeaders.REPLAY_COUNT) != null).toList();
        assertThat(replayed).hasSize(RECORDS);
        assertThat(replayed.stream().map(r -> text(r.key()))).doesNotHaveDuplicates();
        assertThat(replayed).allSatisfy(record -> {
            ConsumerRecord<byte[], byte[]> original = before.get(text(record.key()));
            assertThat(record.partition()).as("partition of %s", text(record.key())).isEqualTo(original.partition());
            assertThat(record.value()).isEqualTo(original.value());
            assertThat(record.timestamp()).isEqualTo(original.timestamp());
        });
    }

    /**
     * {@value #RECORDS} records whose values are no 4-byte int, each with the headers our sink's dead-letter builder
     * writes (Connect style), as if read back from its dead-letter topic.
     */
    private static List<ConsumerRecord<byte[], byte[]>> produceUnreadableRecordsCarryingConnectErrorHeaders(
            LocalKafka kafka) {
        DeadLetterRecordBuilder sinkStyle = new DeadLetterRecordBuilder("earlier-dlq",
                DeadLetterRecordBuilder.HeaderStyle.CONNECT, 1_000_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String key = "relay-" + i;
                byte[] value = bytes("not an int " + i);
                Headers connectHeaders = sinkStyle.build(DeadLetter.of(bytes(key), value, null,
                                new RecordTooLargeException("earlier failure"))
                        .source(EARLIER_SOURCE, 2, 40L + i).target(EARLIER_TARGET, 1), 1_000_000).headers();
                producer.send(new ProducerRecord<>(INPUT, i % 2, null, bytes(key), value, connectHeaders));
            }
        }
        return committed(kafka, INPUT);
    }

    /** A stock Kafka Streams 4.4 app that reads ints, with its own dead-letter queue and LogAndContinue. */
    private void runStreamsAppWithItsOwnDeadLetterQueue(LocalKafka kafka) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.Integer()))
                .to("relay-output", Produced.with(Serdes.String(), Serdes.Integer()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "relay-app");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndContinueExceptionHandler.class.getName());
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, DLQ);
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        KafkaStreams app = new KafkaStreams(builder.build(), props);
        try {
            app.start();
            Await.until(RECORDS + " dead letters from Kafka Streams", DeadLetterFixtures.DEADLINE,
                    () -> committed(kafka, DLQ).size() >= RECORDS);
        } finally {
            app.close(Duration.ofSeconds(30));
        }
    }
}
