package dev.quarantine.replay;

import static dev.quarantine.replay.DeadLetterFixtures.committed;
import static dev.quarantine.replay.DeadLetterFixtures.header;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * What a replay writes stays within the limits of the topics it writes, whatever the dead letters hold and however
 * they interleave: its progress record, and the dead letters of records that fail again.
 */
@ExtendWith(LocalKafkaExtension.class)
class ReplayBoundsIT {

    private static final int PROGRESS_MAX_BYTES = 2_048;
    private static final int TWO_MEGABYTES = 2 * 1024 * 1024;
    private static final String FOUR_MEGABYTES = String.valueOf(4 * 1024 * 1024);

    @Test
    void aReplayRefusingEverySecondDeadLetterKeepsItsProgressWithinTheTopicLimitFinishesAndLaterReplaysSkipItsOwn(
            LocalKafka kafka) throws Exception {
        // one range per written dead letter: ~2,400 bytes of ranges, more than one record holds
        Map<String, String> settings = interleaved(kafka, "interleaved", 600);
        String progressTopic = settings.get(ReplayConfig.PROGRESS_TOPIC_CONFIG);
        String dlq = settings.get(ReplayConfig.DLQ_TOPIC_CONFIG);

        ReplayProgress done = ReplayEngineIT.runToEnd(kafka, settings);

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts()).isEqualTo(new ReplayCounts(300, 0, 0, 0, 0, 0, 300, 0));
        assertThat(perKey(committed(kafka, "interleaved-output"))).hasSize(300)
                .allSatisfy((key, n) -> assertThat(n).isOne());
        List<ConsumerRecord<byte[], byte[]>> progressRecords = committed(kafka, progressTopic);
        assertThat(progressRecords).isNotEmpty()
                .allSatisfy(r -> assertThat(r.value().length).isLessThan(PROGRESS_MAX_BYTES));
        assertThat(done.written().segments()).as("ranges sealed into segment records to fit").isPositive();
        try (ReplayProgressReader reader = new ReplayProgressReader(Map.of("bootstrap.servers",
                kafka.bootstrapServers()), progressTopic, Duration.ofSeconds(60))) {
            assertThat(reader.latest("interleaved-1")).contains(done);
            WrittenOffsets all = reader.awaitAll(Optional.of(new ReplayProgressReader.ReadBack(dlq,
                    "interleaved-2", Integer.MAX_VALUE))).get("interleaved-1").written();
            for (int offset = 0; offset < 600; offset++) {
                assertThat(all.contains(0, offset)).as("dead letter at offset %d written", offset)
                        .isEqualTo(offset % 2 == 0);
            }
        }

        Map<String, Object> preview = new HashMap<>(settings);
        preview.put(ReplayConfig.REPLAY_ID_CONFIG, "interleaved-dry");
        preview.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        DryRunReport dryRun = ReplayEngine.dryRun(new ReplayConfig(preview), Duration.ofSeconds(60));

        assertThat(dryRun.complete()).isTrue();
        assertThat(dryRun.counts().alreadyReplayed()).as("what the first replay wrote, its sealed ranges too")
                .isEqualTo(300);
        assertThat(dryRun.byDestination()).as("the dry run shows nothing the replay would skip").isEmpty();

        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "interleaved-2");
        ReplayProgress again = ReplayEngineIT.runToEnd(kafka, settings);

        assertThat(again.state()).isEqualTo(ReplayState.DONE);
        assertThat(again.counts().replayed()).as("nothing the first replay wrote is written again").isZero();
        assertThat(again.counts().alreadyReplayed()).isEqualTo(300);
        assertThat(again.counts().refused()).isEqualTo(300);
        assertThat(perKey(committed(kafka, "interleaved-output"))).hasSize(300)
                .allSatisfy((key, n) -> assertThat(n).isOne());
    }

    @Test
    void aReplayWhoseWrittenRangesWouldPassTheLimitStopsNamingItKeepsItsProgressExactAndResumesWithAHigherLimit(
            LocalKafka kafka) throws Exception {
        Map<String, String> settings = interleaved(kafka, "ranged", 1_200); // 600 written ranges
        settings.put(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG, "400");
        String progressTopic = settings.get(ReplayConfig.PROGRESS_TOPIC_CONFIG);

        assertThatThrownBy(() -> ReplayEngineIT.runToEnd(kafka, settings)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("ranged-1").hasMessageContaining(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG)
                .hasMessageContaining("400");

        ReplayProgress stopped;
        try (ReplayProgressReader reader = new ReplayProgressReader(Map.of("bootstrap.servers",
                kafka.bootstrapServers()), progressTopic, Duration.ofSeconds(60))) {
            stopped = reader.latest("ranged-1").orElseThrow();
        }
        assertThat(stopped.state()).isEqualTo(ReplayState.RUNNING);
        assertThat(stopped.written().segments()).as("ranges sealed into segment records count too").isPositive();
        assertThat(stopped.counts().replayed()).isBetween(375L, 400L);
        assertThat(perKey(committed(kafka, "ranged-output"))).as("what the committed progress counts, once each")
                .hasSize((int) stopped.counts().replayed()).allSatisfy((key, n) -> assertThat(n).isOne());

        settings.put(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG, "2000");
        ReplayProgress done = ReplayEngineIT.runToEnd(kafka, settings);

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().replayed()).isEqualTo(600);
        assertThat(perKey(committed(kafka, "ranged-output"))).hasSize(600).allSatisfy((key, n) -> assertThat(n).isOne());

        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "ranged-2");
        settings.put(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG, "400");
        assertThatThrownBy(() -> ReplayEngineIT.runToEnd(kafka, settings)).as("reading back the 600 ranges of"
                + " ranged-1 to skip what it wrote").isInstanceOf(ConfigException.class)
                .hasMessageContaining("ranged-1").hasMessageContaining(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG);
        assertThat(perKey(committed(kafka, "ranged-output"))).hasSize(600).allSatisfy((key, n) -> assertThat(n).isOne());
    }

    @Test
    void aProgressTopicWhoseRetentionCouldDeleteSegmentRecordsIsRefusedAtStartNamingItAndTheSetting(
            LocalKafka kafka) {
        String dlq = CliFixtures.sinkDlq(kafka, "retained", 3, i -> new RecordTooLargeException("too large"));
        for (String policy : List.of("delete", "compact,delete")) {
            String progressTopic = ReplayConfig.PROGRESS_TOPIC_DEFAULT + "-" + policy.replace(',', '-');
            kafka.createTopic(progressTopic, 1, Map.of("cleanup.policy", policy));

            assertRefusedAtStart(kafka, dlq, progressTopic, "cleanup.policy");
        }
        assertThat(committed(kafka, "retained-output")).isEmpty();
    }

    /**
     * A replay's progress record and its segment records have different keys, so on a topic of several partitions they
     * could land on different ones, and a reader could see a replay's DONE without the ranges committed with it.
     */
    @Test
    void aProgressTopicOfMoreThanOnePartitionIsRefusedAtStartNamingItAndTheSetting(LocalKafka kafka) {
        String dlq = CliFixtures.sinkDlq(kafka, "split", 3, i -> new RecordTooLargeException("too large"));
        String progressTopic = ReplayConfig.PROGRESS_TOPIC_DEFAULT + "-split";
        kafka.createTopic(progressTopic, 3, Map.of("cleanup.policy", "compact"));

        assertRefusedAtStart(kafka, dlq, progressTopic, "3 partitions");
        assertThat(committed(kafka, "split-output")).isEmpty();
    }

    private static void assertRefusedAtStart(LocalKafka kafka, String dlq, String progressTopic, String why) {
        assertThatThrownBy(() -> ReplayEngineIT.runToEnd(kafka, Map.of(ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.DESTINATION_CONFIG, dlq.replace("-dlq", "-output"), ReplayConfig.REPLAY_ID_CONFIG,
                dlq + "-1", ReplayConfig.PROGRESS_TOPIC_CONFIG, progressTopic))).as(progressTopic)
                .isInstanceOf(ConfigException.class).hasMessageContaining(progressTopic)
                .hasMessageContaining(ReplayConfig.PROGRESS_TOPIC_CONFIG).hasMessageContaining(why);
        assertThat(committed(kafka, progressTopic)).as("progress written to " + progressTopic).isEmpty();
    }

    @Test
    void aLaterForceTruncatedReplayWritesTheTruncatedLettersACoalescedReplaySkipped(LocalKafka kafka)
            throws Exception {
        String dlq = "cut-dlq";
        String output = "cut-output";
        String progressTopic = ReplayConfig.PROGRESS_TOPIC_DEFAULT + "-cut";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(output, 1, Map.of());
        kafka.createTopic(progressTopic, 1, Map.of("cleanup.policy", "compact", "max.message.bytes",
                String.valueOf(PROGRESS_MAX_BYTES)));
        // every second dead letter is truncated: the first replay skips it, between two it writes
        List<ProducerRecord<byte[], byte[]>> letters = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            boolean cut = i % 2 == 1;
            letters.add(letter(dlq, (cut ? "cut-" : "whole-") + i, "value-" + i, target(output),
                    new RecordHeader(DeadLetterHeaders.PAYLOAD_TRUNCATED, bytes(cut ? "value" : "false"))));
        }
        write(kafka, letters);
        Map<String, String> settings = new HashMap<>(Map.of(ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, output, ReplayConfig.PROGRESS_TOPIC_CONFIG, progressTopic,
                ReplayConfig.BATCH_SIZE_CONFIG, "50", ReplayConfig.REPLAY_ID_CONFIG, "cut-1"));
        ReplayProgress first = ReplayEngineIT.runToEnd(kafka, settings);
        assertThat(first.counts()).isEqualTo(new ReplayCounts(300, 0, 0, 0, 300, 0, 0, 0));

        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "cut-2");
        settings.put(ReplayConfig.FORCE_TRUNCATED_CONFIG, "true");
        ReplayProgress forced = ReplayEngineIT.runToEnd(kafka, settings);

        assertThat(forced.state()).isEqualTo(ReplayState.DONE);
        assertThat(forced.counts()).as("the truncated letters were never written: this replay writes them")
                .isEqualTo(new ReplayCounts(300, 0, 0, 0, 0, 0, 0, 300));
        Map<String, Long> written = perKey(committed(kafka, output));
        assertThat(written).hasSize(600).allSatisfy((key, n) -> assertThat(n).isOne());
        assertThat(written.keySet()).filteredOn(key -> key.startsWith("cut-")).hasSize(300);
    }

    @Test
    void aDeadLetterWithMegabyteContextHeadersThatFailsAgainIsParkedWithoutThemAndTheReplayFinishes(
            LocalKafka kafka) throws Exception {
        String dlq = "hostile-dlq";
        String parking = dlq + ".parking";
        kafka.createTopic(dlq, 1, Map.of("max.message.bytes", FOUR_MEGABYTES));
        kafka.createTopic(parking, 1, Map.of("max.message.bytes", FOUR_MEGABYTES));
        kafka.createTopic("hostile-output", 1, Map.of("max.message.bytes", "2000"));
        String stillTooLarge = "v".repeat(3_000);
        List<ProducerRecord<byte[], byte[]>> letters = new ArrayList<>();
        letters.add(letter(dlq, "big-connector", stillTooLarge, target("hostile-output"),
                new RecordHeader(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, bytes("c".repeat(TWO_MEGABYTES)))));
        letters.add(letter(dlq, "big-application", stillTooLarge, target("hostile-output"),
                new RecordHeader(DeadLetterHeaders.APPLICATION_ID, bytes("a".repeat(TWO_MEGABYTES)))));
        for (int i = 0; i < 5; i++) {
            letters.add(letter(dlq, "good-" + i, "value-" + i, target("hostile-output"),
                    new RecordHeader(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, bytes("orders-sink"))));
        }
        write(kafka, letters);

        ReplayProgress done = ReplayEngineIT.runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "hostile-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "hostile-output",
                ReplayConfig.MAX_ATTEMPTS_CONFIG, "1"));

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts()).isEqualTo(new ReplayCounts(5, 0, 2, 0, 0, 0, 0, 0));
        assertThat(perKey(committed(kafka, "hostile-output"))).hasSize(5).allSatisfy((key, n) -> assertThat(n).isOne());
        List<ConsumerRecord<byte[], byte[]>> parked = committed(kafka, parking);
        assertThat(parked).extracting(r -> text(r.key())).containsExactlyInAnyOrder("big-connector",
                "big-application");
        assertThat(parked).allSatisfy(r -> {
            assertThat(header(r, DeadLetterHeaders.CONNECT_CONNECTOR_NAME)).isNull();
            assertThat(header(r, DeadLetterHeaders.APPLICATION_ID)).isNull();
            assertThat(header(r, DeadLetterHeaders.TARGET_TOPIC)).isEqualTo("hostile-output");
            assertThat(r.serializedValueSize() + r.serializedKeySize()).isLessThan(1_048_576);
        });
        assertThat(committed(kafka, dlq)).as("nothing dead-lettered again into the dead-letter topic").hasSize(7);
    }

    /**
     * The settings of replay {@code <name>-1} of {@link CliFixtures#everySecondRefusedDlq} with {@code count} dead
     * letters, in batches of 50, keeping its progress in a topic of its own whose records may be at most
     * {@value #PROGRESS_MAX_BYTES} bytes.
     */
    private static Map<String, String> interleaved(LocalKafka kafka, String name, int count) throws Exception {
        String progressTopic = ReplayConfig.PROGRESS_TOPIC_DEFAULT + "-" + name;
        kafka.createTopic(progressTopic, 1, Map.of("cleanup.policy", "compact", "max.message.bytes",
                String.valueOf(PROGRESS_MAX_BYTES)));
        String dlq = CliFixtures.everySecondRefusedDlq(kafka, name, count);
        return new HashMap<>(Map.of(ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG,
                name + "-output", ReplayConfig.PROGRESS_TOPIC_CONFIG, progressTopic, ReplayConfig.BATCH_SIZE_CONFIG,
                "50", ReplayConfig.REPLAY_ID_CONFIG, name + "-1"));
    }

    private static ProducerRecord<byte[], byte[]> letter(String dlq, String key, String value, Header... extra) {
        List<Header> headers = new ArrayList<>(List.of(
                new RecordHeader(DeadLetterHeaders.CONNECT_TOPIC, bytes("bounds-input")),
                new RecordHeader(DeadLetterHeaders.CONNECT_EXCEPTION, bytes(RecordTooLargeException.class.getName()))));
        headers.addAll(List.of(extra));
        headers.add(CliFixtures.ourCategory());
        return new ProducerRecord<>(dlq, null, null, bytes(key), bytes(value), headers);
    }

    private static Header target(String topic) {
        return new RecordHeader(DeadLetterHeaders.TARGET_TOPIC, bytes(topic));
    }

    /** Writes {@code letters} in order, as a writer of the dead-letter topic allowed 5 MB requests would. */
    private static void write(LocalKafka kafka, List<ProducerRecord<byte[], byte[]>> letters) throws Exception {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 5 * 1024 * 1024);
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sent = letters.stream().map(producer::send).toList();
            producer.flush();
            for (Future<RecordMetadata> result : sent) {
                result.get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static Map<String, Long> perKey(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().collect(Collectors.groupingBy(r -> text(r.key()), Collectors.counting()));
    }
}
