package dev.quarantine.replay;

import static dev.quarantine.replay.DeadLetterFixtures.committed;
import static dev.quarantine.replay.DeadLetterFixtures.header;
import static dev.quarantine.replay.ReplayEngineIT.runToEnd;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder;
import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * A replay puts each record back with the time it had, end to end on a real broker: dead letters written by
 * txn-send's builder (which keeps the failed record's timestamp) and by Kafka Streams 4.4 itself, from a
 * deserialization error; and what a destination topic with {@code message.timestamp.type=LogAppendTime} does.
 */
@ExtendWith(LocalKafkaExtension.class)
class ReplayTimestampsIT {

    private static final int RECORDS = 100;
    private static final long TWO_DAYS_AGO = System.currentTimeMillis() - Duration.ofDays(2).toMillis();

    @TempDir
    Path stateDir;

    @Test
    void recordsDeadLetteredThroughTxnSendComeBackWithTheirOwnTimestamps(LocalKafka kafka) throws Exception {
        String dlq = deadLetterTwoDayOldRecords(kafka, "aged");

        ReplayProgress done = runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "aged-fix",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "aged-output"));

        assertThat(done.counts().replayed()).isEqualTo(RECORDS);
        List<ConsumerRecord<byte[], byte[]>> replayed = committed(kafka, "aged-output");
        assertThat(replayed).hasSize(RECORDS).allSatisfy(record -> {
            int i = Integer.parseInt(text(record.key()).substring("aged-".length()));
            assertThat(record.timestamp()).as("replayed %s", text(record.key())).isEqualTo(TWO_DAYS_AGO + i);
            assertThat(record.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
            assertThat(record.partition()).isEqualTo(i % 2);
        });
    }

    @Test
    void aDestinationTopicWithLogAppendTimeStampsTheReplayedRecordsWhenItAppendsThem(LocalKafka kafka)
            throws Exception {
        String dlq = deadLetterTwoDayOldRecords(kafka, "append");
        kafka.createTopic("append-stamped", 1, Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));

        ReplayProgress done = runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "append-fix",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATION_CONFIG, "append-stamped"));

        assertThat(done.counts().replayed()).isEqualTo(RECORDS);
        assertThat(committed(kafka, dlq)).as("the dead letters themselves kept the original time")
                .allSatisfy(letter -> assertThat(letter.timestamp()).isLessThan(TWO_DAYS_AGO + RECORDS));
        assertThat(committed(kafka, "append-stamped")).hasSize(RECORDS).allSatisfy(record -> {
            assertThat(record.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
            assertThat(record.timestamp()).as("the broker's time, not the record's")
                    .isGreaterThanOrEqualTo(TWO_DAYS_AGO + Duration.ofDays(1).toMillis());
        });
    }

    @Test
    void aDeadLetterTopicWithLogAppendTimeKeepsTheTimeOfArrivalWhichTheReplayWrites(LocalKafka kafka)
            throws Exception {
        String dlq = deadLetterTwoDayOldRecords(kafka, "arrival",
                Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
        Map<String, Long> arrivals = committed(kafka, dlq).stream()
                .collect(Collectors.toMap(r -> text(r.key()), ConsumerRecord::timestamp));

        ReplayProgress done = runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "arrival-fix",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "arrival-output"));

        assertThat(done.counts().replayed()).isEqualTo(RECORDS);
        assertThat(committed(kafka, "arrival-output")).hasSize(RECORDS).allSatisfy(record -> {
            assertThat(record.timestamp()).as("the dead letter's arrival, not the record's own time")
                    .isEqualTo(arrivals.get(text(record.key())))
                    .isGreaterThanOrEqualTo(TWO_DAYS_AGO + Duration.ofDays(1).toMillis());
            assertThat(record.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        });
    }

    @Test
    void replayOfKafkaStreamsOwnDeadLettersPutsEachBackIntoItsInputPartitionOnceWithItsTime(LocalKafka kafka)
            throws Exception {
        String input = "own-input";
        String dlq = "own-dlq";
        kafka.createTopic(input, 2, Map.of());
        kafka.createTopic(dlq, 1, Map.of());
        List<ConsumerRecord<byte[], byte[]>> originals = produceWithUnreadableValues(kafka, input);
        RealDeadLetterWriters.streamsOwnDlq(kafka, "own-app", input, dlq, stateDir, RECORDS / 4,
                DeadLetterFixtures.DEADLINE);
        List<ConsumerRecord<byte[], byte[]>> letters = committed(kafka, dlq);
        assertThat(letters).as("Kafka Streams' own dead letters keep the input's time").hasSize(RECORDS / 4)
                .allSatisfy(letter -> {
                    assertThat(header(letter, DeadLetterHeaders.STREAMS_TOPIC)).isEqualTo(input);
                    assertThat(letter.timestamp()).isEqualTo(byKey(originals).get(text(letter.key())).timestamp());
                });

        ReplayProgress done = runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "own-fix",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, input));

        assertThat(done.counts().replayed()).isEqualTo(RECORDS / 4);
        List<ConsumerRecord<byte[], byte[]>> all = committed(kafka, input);
        List<ConsumerRecord<byte[], byte[]>> replayed = all.stream()
                .filter(r -> r.headers().lastHeader(DeadLetterHeaders.REPLAY_COUNT) != null).toList();
        assertThat(all).hasSize(RECORDS + RECORDS / 4);
        assertThat(replayed.stream().map(r -> text(r.key()))).as("each unreadable record once")
                .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(letters.stream()
                        .map(r -> text(r.key())).toList());
        Map<String, ConsumerRecord<byte[], byte[]>> original = byKey(originals);
        assertThat(replayed).allSatisfy(record -> {
            ConsumerRecord<byte[], byte[]> before = original.get(text(record.key()));
            assertThat(record.partition()).as("partition of %s", text(record.key())).isEqualTo(before.partition());
            assertThat(record.timestamp()).as("time of %s", text(record.key())).isEqualTo(before.timestamp());
            assertThat(record.value()).isEqualTo(before.value());
            assertThat(header(record, "trace-id")).isEqualTo(text(record.key()));
            assertThat(names(record)).noneMatch(name -> name.startsWith("__streams.errors."));
        });
    }

    /**
     * Sends {@value #RECORDS} records two days old (keys {@code <prefix>-i}, partition {@code i % 2}) larger than
     * {@code <prefix>-output} accepts through a {@link TxnSendProducer} that leaves them out of its transaction, and
     * their dead letters, built by {@link DeadLetterRecordBuilder}, in the same transaction; then raises the limit
     * (the fix). Returns the dead-letter topic.
     */
    private static String deadLetterTwoDayOldRecords(LocalKafka kafka, String prefix) throws Exception {
        return deadLetterTwoDayOldRecords(kafka, prefix, Map.of());
    }

    /** As {@link #deadLetterTwoDayOldRecords(LocalKafka, String)}, with these configs of the dead-letter topic. */
    private static String deadLetterTwoDayOldRecords(LocalKafka kafka, String prefix, Map<String, String> dlqConfigs)
            throws Exception {
        String output = prefix + "-output";
        String dlq = prefix + "-dlq";
        kafka.createTopic(output, 2, Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "2000"));
        kafka.createTopic(dlq, 1, dlqConfigs);
        DeadLetterRecordBuilder builder = new DeadLetterRecordBuilder(dlq, DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                1_000_000);
        try (TxnSendProducer<byte[], byte[]> producer = new TxnSendProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, prefix + "-writer"), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            List<CompletableFuture<Exception>> failures = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                String key = prefix + "-" + i;
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(output, i % 2, TWO_DAYS_AGO + i,
                        bytes(key), bytes(DeadLetterFixtures.largeValue(key)));
                CompletableFuture<Exception> failed = new CompletableFuture<>();
                producer.send(record, (metadata, error) -> failed.complete(error), TxnSendOption.IGNORE_SEND_ERRORS);
                records.add(record);
                failures.add(failed);
            }
            for (int i = 0; i < RECORDS; i++) {
                ProducerRecord<byte[], byte[]> record = records.get(i);
                Exception error = failures.get(i).get();
                assertThat(error).isInstanceOf(RecordTooLargeException.class);
                producer.send(builder.build(DeadLetter.of(record.key(), record.value(), null, error)
                        .target(output, record.partition()).timestamp(record.timestamp()),
                        producer.maxRecordBytes(dlq)), null, TxnSendOption.NONE);
            }
            producer.commitTransaction();
        }
        DeadLetterFixtures.raiseMaxMessageBytes(kafka, 100_000, output);
        return dlq;
    }

    /** {@value #RECORDS} records two days old; every fourth value is not the 4 bytes of an int. */
    private static List<ConsumerRecord<byte[], byte[]>> produceWithUnreadableValues(LocalKafka kafka, String input) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String key = "own-" + i;
                byte[] value = i % 4 == 0 ? bytes("not an int " + i) : Serdes.Integer().serializer().serialize(input, i);
                producer.send(new ProducerRecord<>(input, null, TWO_DAYS_AGO + i, bytes(key), value,
                        new RecordHeaders().add("trace-id", bytes(key))));
            }
        }
        return committed(kafka, input);
    }

    private static Map<String, ConsumerRecord<byte[], byte[]>> byKey(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().collect(Collectors.toMap(r -> text(r.key()), Function.identity()));
    }

    private static List<String> names(ConsumerRecord<byte[], byte[]> record) {
        List<String> names = new ArrayList<>();
        for (Header header : record.headers()) {
            names.add(header.key());
        }
        return names;
    }
}
