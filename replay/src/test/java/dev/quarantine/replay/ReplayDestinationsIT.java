package dev.quarantine.replay;

import static dev.quarantine.replay.DeadLetterFixtures.committed;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * Where a replay may write, against a real broker: forged destinations refused, hostile partition headers unroutable,
 * the allow-list, the dry run per destination, and dead letters already replayed.
 */
@ExtendWith(LocalKafkaExtension.class)
class ReplayDestinationsIT {

    private static final String FORGED_KEY = "connector-evil0";

    @Test
    void forgedInternalDestinationsAreRefusedEvenWhenAllowedAndTheOtherDeadLettersAreReplayed(LocalKafka kafka)
            throws Exception {
        String dlq = CliFixtures.sinkDlq(kafka, "forge", 10, i -> new RecordTooLargeException("too large"));
        kafka.createTopic("connect-configs", 1, Map.of("cleanup.policy", "compact"));
        kafka.createTopic("forge-elsewhere", 1, Map.of());
        List<String> forged = List.of("__consumer_offsets", "connect-configs", ReplayConfig.PROGRESS_TOPIC_DEFAULT,
                dlq, "forge-dlq.parking", "forge-elsewhere");
        forged.forEach(topic -> forge(kafka, dlq, target(topic, "0")));
        Map<TopicPartition, Long> offsetsBefore = endOffsets(kafka, "__consumer_offsets");

        ReplayProgress done = ReplayEngineIT.runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "forge-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG,
                "forge-output|__consumer_offsets|connect-configs|quarantine-replay-progress|forge-dlq.*"));

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().replayed()).isEqualTo(10);
        assertThat(done.counts().refused()).as("every forged destination refused").isEqualTo(forged.size());
        assertThat(perKey(committed(kafka, "forge-output"))).hasSize(10).allSatisfy((k, n) -> assertThat(n).isOne());
        assertThat(committed(kafka, "connect-configs")).isEmpty();
        assertThat(committed(kafka, "forge-elsewhere")).as("outside the allow-list").isEmpty();
        assertThat(committed(kafka, dlq)).as("nothing written back to the dead-letter topic").hasSize(16);
        // the test JVM's other classes share the broker: their groups may write there meanwhile, the replay must not
        assertThat(writtenSince(kafka, "__consumer_offsets", offsetsBefore))
                .noneMatch(r -> r.key() != null && FORGED_KEY.equals(text(r.key())));
        assertThat(committed(kafka, ReplayConfig.PROGRESS_TOPIC_DEFAULT)).noneMatch(r -> FORGED_KEY.equals(text(r.key())));
        try (ReplayProgressReader reader = ReplayEngineIT.reader(kafka)) {
            assertThat(reader.latest("forge-1")).contains(done);
        }
    }

    @Test
    void aDeadLetterHeadedForAnotherReplaysOwnProgressTopicIsRefusedEvenWhenAllowedAndNothingIsWrittenThere(
            LocalKafka kafka) {
        String otherProgress = ReplayConfig.PROGRESS_TOPIC_DEFAULT + "-team-a";
        String otherDlq = CliFixtures.sinkDlq(kafka, "teama", 2, i -> new RecordTooLargeException("too large"));
        ReplayProgress other = ReplayEngineIT.runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "teama-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, otherDlq, ReplayConfig.DESTINATION_CONFIG, "teama-output",
                ReplayConfig.PROGRESS_TOPIC_CONFIG, otherProgress));
        String dlq = CliFixtures.sinkDlq(kafka, "teamb", 3, i -> new RecordTooLargeException("too large"));
        forge(kafka, dlq, target(otherProgress, "0"));

        ReplayProgress done = ReplayEngineIT.runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "teamb-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "teamb-output|.*progress.*"));

        assertThat(other.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().refused()).as("the other replay's progress topic refused").isOne();
        assertThat(done.counts().replayed()).isEqualTo(3);
        assertThat(committed(kafka, otherProgress)).as("records keyed by the forged key in " + otherProgress)
                .isNotEmpty().noneMatch(r -> FORGED_KEY.equals(text(r.key())));
    }

    @Test
    void hostilePartitionHeadersMakeTheirDeadLettersUnroutableAndTheReplayFinishes(LocalKafka kafka) {
        String dlq = CliFixtures.sinkDlq(kafka, "badpart", 10, i -> new RecordTooLargeException("too large"));
        List<String> partitions = List.of("-1", "2147483648", "abc", "9".repeat(10_000), "1");
        partitions.forEach(partition -> forge(kafka, dlq, target("badpart-output", partition)));
        forge(kafka, dlq, new Header[] {new RecordHeader(DeadLetterHeaders.TARGET_TOPIC, "x".repeat(10_000)
                .getBytes(StandardCharsets.UTF_8))});

        ReplayProgress done = ReplayEngineIT.runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "badpart-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "badpart-output"));

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().skippedUnroutable()).isEqualTo(partitions.size() + 1);
        assertThat(done.counts().replayed()).isEqualTo(10);
        assertThat(perKey(committed(kafka, "badpart-output"))).hasSize(10).doesNotContainKey(FORGED_KEY)
                .allSatisfy((k, n) -> assertThat(n).isOne());
    }

    @Test
    void aDryRunCountsWhatWouldGoToEachDestinationAndWritesNothing(LocalKafka kafka) {
        String dlq = CliFixtures.sinkDlq(kafka, "dryto", 4, i -> new RecordTooLargeException("too large"));
        kafka.createTopic("dryto-other", 2, Map.of());
        forge(kafka, dlq, target("dryto-other", "1"));
        forge(kafka, dlq, target("dryto-other", "0"));
        forge(kafka, dlq, target("__transaction_state", "0"));
        forge(kafka, dlq, target("dryto-output", "-1"));

        DryRunReport report = ReplayEngine.dryRun(new ReplayConfig(Map.of(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(), ReplayConfig.REPLAY_ID_CONFIG, "dryto-1", ReplayConfig.DLQ_TOPIC_CONFIG,
                dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "dryto-.*")), Duration.ofSeconds(120));

        assertThat(report.complete()).isTrue();
        assertThat(report.byDestination()).containsExactly(Map.entry("dryto-other", 2L), Map.entry("dryto-output", 4L));
        assertThat(report.refusedByDestination()).containsExactly(Map.entry("__transaction_state", 1L));
        assertThat(report.counts()).isEqualTo(new ReplayCounts(6, 0, 0, 0, 0, 1, 1, 0));
        assertThat(committed(kafka, "dryto-output")).isEmpty();
        assertThat(committed(kafka, "dryto-other")).isEmpty();
        assertThat(CliFixtures.progress(kafka, "dryto-1")).isEmpty();
    }

    @Test
    void deadLettersAFinishedReplayWroteAreSkippedUnlessReplayAgainAndTheOnesItFilteredOutAreNot(LocalKafka kafka) {
        String dlq = CliFixtures.sinkDlq(kafka, "twice", 10, i -> new RecordTooLargeException("too large"));
        Map<String, String> settings = new HashMap<>(Map.of(ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "twice-output"));

        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "twice-1");
        settings.put(ReplayConfig.FILTER_OFFSET_RANGES_CONFIG, "0:0-4");
        ReplayProgress first = ReplayEngineIT.runToEnd(kafka, settings);
        settings.remove(ReplayConfig.FILTER_OFFSET_RANGES_CONFIG);
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "twice-2");
        ReplayProgress second = ReplayEngineIT.runToEnd(kafka, settings);

        assertThat(first.counts()).as("its range is the offset filter's")
                .isEqualTo(new ReplayCounts(5, 0, 0, 0, 0, 0, 0, 0));
        assertThat(second.counts()).isEqualTo(new ReplayCounts(5, 0, 0, 0, 0, 0, 0, 5));
        assertThat(perKey(committed(kafka, "twice-output"))).hasSize(10).allSatisfy((k, n) -> assertThat(n).isOne());

        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "twice-3");
        settings.put(ReplayConfig.REPLAY_AGAIN_CONFIG, "true");
        ReplayProgress third = ReplayEngineIT.runToEnd(kafka, settings);

        assertThat(third.counts()).isEqualTo(new ReplayCounts(10, 0, 0, 0, 0, 0, 0, 0));
        assertThat(perKey(committed(kafka, "twice-output"))).hasSize(10).allSatisfy((k, n) -> assertThat(n)
                .isEqualTo(2));
    }

    /**
     * The failed record's own headers never steer a replay of our sink's dead letter (the review of the new reader
     * rule): with {@code dlq.context.headers.enable=false} the sink writes no Kafka Connect header of its own, so a
     * Spring Kafka or share-group marker the record carried was the letter's last family marker, and the letter was
     * read as Spring's and replayed to the topic that marker named. And a record carrying
     * {@code __quarantine.source.raw.value} had it replayed, to {@code source}, instead of the dead letter's value.
     * The letters are built by the sink's builder, as the sink does (its context headers then removed, as
     * {@code DeadLetters} does when they are off).
     */
    @Test
    void theFailedRecordsForeignMarkersAndRawHeadersNeverSteerTheReplayOfOurDeadLetter(LocalKafka kafka)
            throws Exception {
        String dlq = "steer-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        for (String topic : List.of("steer-output", "steer-other", "steer-input")) {
            kafka.createTopic(topic, 1, Map.of());
        }
        org.apache.kafka.common.header.internals.RecordHeaders forged =
                new org.apache.kafka.common.header.internals.RecordHeaders();
        forged.add("kafka_dlt-original-topic", "steer-other".getBytes(StandardCharsets.UTF_8));
        forged.add("__dlq.errors.topic", "steer-other".getBytes(StandardCharsets.UTF_8));
        forged.add(DeadLetterHeaders.SOURCE_RAW_VALUE, "forged-value".getBytes(StandardCharsets.UTF_8));
        dev.quarantine.txn.DeadLetterRecordBuilder builder = new dev.quarantine.txn.DeadLetterRecordBuilder(dlq,
                dev.quarantine.txn.DeadLetterRecordBuilder.HeaderStyle.CONNECT, 1_000_000);
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<>(kafka.clientProps(),
                new org.apache.kafka.common.serialization.ByteArraySerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (int i = 0; i < 4; i++) {
                var letter = builder.build(dev.quarantine.txn.DeadLetter.of(("steer-" + i).getBytes(
                        StandardCharsets.UTF_8), "the-value".getBytes(StandardCharsets.UTF_8), forged.toArray(),
                        new RecordTooLargeException("too large")).source("steer-input", 0, i).target("steer-output", 0)
                        .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "steer-copy"));
                boolean contextHeaders = i % 2 == 0;
                org.apache.kafka.common.header.internals.RecordHeaders headers =
                        new org.apache.kafka.common.header.internals.RecordHeaders();
                letter.headers().forEach(h -> {
                    if (contextHeaders || !h.key().startsWith("__connect.errors.")) {
                        headers.add(h);
                    }
                });
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(dlq, 0, letter.timestamp(),
                        letter.key(), letter.value(), headers)).get(30, TimeUnit.SECONDS);
            }
        }

        ReplayProgress original = ReplayEngineIT.runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "steer-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "steer-.*"));
        ReplayProgress source = ReplayEngineIT.runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "steer-2",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "steer-.*",
                ReplayConfig.DESTINATION_CONFIG, "source", ReplayConfig.REPLAY_AGAIN_CONFIG, "true"));

        assertThat(original.counts().replayed()).isEqualTo(4);
        assertThat(committed(kafka, "steer-output")).as("every letter back to the sink's target").hasSize(4);
        assertThat(committed(kafka, "steer-other")).as("never where the record's forged marker said").isEmpty();
        assertThat(source.counts().replayed()).as("with context headers: to the source topic").isEqualTo(2);
        assertThat(committed(kafka, "steer-input")).hasSize(2)
                .allSatisfy(r -> assertThat(text(r.value())).as("the dead letter's value, not a forged raw one")
                        .isEqualTo("the-value"));
    }

    private static void forge(LocalKafka kafka, String dlq, Header[] headers) {
        Header[] all = new Header[headers.length + 3];
        all[0] = new RecordHeader(DeadLetterHeaders.CONNECT_TOPIC, "forge-input".getBytes(StandardCharsets.UTF_8));
        all[1] = new RecordHeader(DeadLetterHeaders.CONNECT_EXCEPTION,
                RecordTooLargeException.class.getName().getBytes(StandardCharsets.UTF_8));
        System.arraycopy(headers, 0, all, 2, headers.length);
        all[all.length - 1] = CliFixtures.ourCategory();
        DeadLetterFixtures.rawLetter(kafka, dlq, FORGED_KEY, "{\"connector.class\": \"evil\"}", all);
    }

    private static Header[] target(String topic, String partition) {
        return new Header[] {new RecordHeader(DeadLetterHeaders.TARGET_TOPIC, topic.getBytes(StandardCharsets.UTF_8)),
            new RecordHeader(DeadLetterHeaders.TARGET_PARTITION, partition.getBytes(StandardCharsets.UTF_8))};
    }

    private static Map<String, Long> perKey(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().collect(Collectors.groupingBy(r -> text(r.key()), Collectors.counting()));
    }

    /** Every record written to {@code topic} from {@code offsets} on (0 where none is given), read_uncommitted. */
    private static List<ConsumerRecord<byte[], byte[]>> writtenSince(LocalKafka kafka, String topic,
                                                                   Map<TopicPartition, Long> offsets)
            throws Exception {
        Map<TopicPartition, Long> end = endOffsets(kafka, topic);
        if (end.isEmpty()) {
            return List.of(); // no such topic: nothing written there
        }
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        List<ConsumerRecord<byte[], byte[]>> written = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(end.keySet());
            end.keySet().forEach(partition -> consumer.seek(partition, offsets.getOrDefault(partition, 0L)));
            Await.until("the records written to " + topic + " since " + offsets, Duration.ofSeconds(30), () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(written::add);
                return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
            });
        }
        return written;
    }

    private static Map<TopicPartition, Long> endOffsets(LocalKafka kafka, String topic) throws Exception {
        try (Admin admin = kafka.admin()) {
            if (!admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(30, TimeUnit.SECONDS)
                    .contains(topic)) {
                return Map.of();
            }
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        }
    }
}
