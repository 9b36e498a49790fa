package dev.quarantine.replay;

import static dev.quarantine.replay.DeadLetterFixtures.TRACE;
import static dev.quarantine.replay.DeadLetterFixtures.committed;
import static dev.quarantine.replay.DeadLetterFixtures.header;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.SendErrors;

/** The engine against a real broker, on dead letters of our Streams handler and of our sink's format. */
@ExtendWith(LocalKafkaExtension.class)
class ReplayEngineIT {

    @TempDir
    Path stateDir;

    @Test
    void replayFilteredByErrorClassPutsExactlyTheMatchingRecordsOnceIntoTheirOriginalTopics(LocalKafka kafka)
            throws Exception {
        String dlq = "mixed-dlq";
        kafka.createTopic(dlq, 2, Map.of());
        DeadLetterFixtures.StreamsTopics streams = new DeadLetterFixtures.StreamsTopics("mixed-s", dlq);
        streams.create(kafka);
        DeadLetterFixtures.streamsLetters(kafka, streams, "mixed-app", stateDir, 500);
        kafka.createTopic("mixed-c-output", 1, Map.of("max.message.bytes", "2000"));
        DeadLetterFixtures.connectLetters(kafka, dlq, "mixed-c-input", "mixed-c-output", "mixed-c", 600,
                i -> i % 3 == 2 ? new InvalidTimestampException("too old") : new RecordTooLargeException("too large"),
                "mixed-copy");
        List<ConsumerRecord<byte[], byte[]>> letters = committed(kafka, dlq);
        assertThat(letters).as("dead letters: 400 from Streams, 600 in the sink's format").hasSize(1000);
        assertThat(letters.stream().filter(r -> "mixed-app".equals(header(r, DeadLetterHeaders.APPLICATION_ID))))
                .as("Streams dead letters name their application").hasSize(400);
        DeadLetterFixtures.raiseMaxMessageBytes(kafka, 100_000, streams.output, "mixed-c-output");

        ReplayProgress done = runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "mixed-fix",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.FILTER_ERROR_CLASSES_CONFIG, "RecordTooLargeException",
                ReplayConfig.BATCH_SIZE_CONFIG, "100", ReplayConfig.DESTINATIONS_ALLOWED_CONFIG,
                streams.output + "|mixed-c-output"));

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts()).isEqualTo(new ReplayCounts(700, 0, 0, 300, 0, 0, 0, 0));
        assertReplayedOnceWithOriginalHeaders(committed(kafka, streams.output).stream()
                .filter(r -> !text(r.value()).startsWith("good-")).toList(), 300);
        assertReplayedOnceWithOriginalHeaders(committed(kafka, "mixed-c-output"), 400);
        assertThat(committed(kafka, streams.compacted)).as("InvalidRecordException letters stay").isEmpty();
        assertThat(committed(kafka, dlq)).as("nothing dead-lettered again").hasSize(1000);
        try (ReplayProgressReader reader = reader(kafka)) {
            assertThat(reader.latest("mixed-fix")).contains(done);
            assertThat(reader.latest("never-started")).isEmpty();
        }
    }

    @Test
    void stillPoisonRecordComesBackWithItsReplayCountAndIsParkedAfterMaxAttempts(LocalKafka kafka) throws Exception {
        String dlq = "loop-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic("loop-output", 1, Map.of("max.message.bytes", "2000"));
        DeadLetterFixtures.connectLetters(kafka, dlq, "loop-input", "loop-output", "loop", 10,
                i -> new RecordTooLargeException("too large"), "loop-copy");

        ReplayProgress first = runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "loop-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.MAX_ATTEMPTS_CONFIG, "2",
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "loop-output"));

        assertThat(first.counts()).isEqualTo(new ReplayCounts(0, 10, 0, 0, 0, 0, 0, 0));
        List<ConsumerRecord<byte[], byte[]>> again = committed(kafka, dlq).subList(10, 20);
        assertThat(again).allSatisfy(r -> {
            assertThat(header(r, DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("1");
            assertThat(header(r, DeadLetterHeaders.TARGET_TOPIC)).isEqualTo("loop-output");
            assertThat(header(r, DeadLetterHeaders.CONNECT_TOPIC)).isEqualTo("loop-input");
            assertThat(header(r, DeadLetterHeaders.CONNECT_CONNECTOR_NAME)).isEqualTo("loop-copy");
            assertThat(header(r, DeadLetterHeaders.CONNECT_EXCEPTION)).endsWith("RecordTooLargeException");
            assertThat(header(r, TRACE)).isEqualTo(text(r.key()));
        });

        ReplayProgress second = runToEnd(kafka, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "loop-2",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.MAX_ATTEMPTS_CONFIG, "2",
                ReplayConfig.FILTER_OFFSET_RANGES_CONFIG, "0:" + again.get(0).offset() + "-" + again.get(9).offset(),
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "loop-output"));

        assertThat(second.counts()).as("its range is the offset filter's")
                .isEqualTo(new ReplayCounts(0, 0, 10, 0, 0, 0, 0, 0));
        List<ConsumerRecord<byte[], byte[]>> parked = committed(kafka, dlq + ".parking");
        assertThat(parked).hasSize(10).allSatisfy(r -> {
            assertThat(header(r, DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("2");
            assertThat(header(r, DeadLetterHeaders.CONNECT_EXCEPTION)).endsWith("RecordTooLargeException");
        });
        assertThat(committed(kafka, dlq)).as("nothing more dead-lettered").hasSize(20);
        assertThat(committed(kafka, "loop-output")).isEmpty();
    }

    @Test
    void recordTheBrokerRejectsThoughTheChecksPassedIsDeadLetteredWhenItsBatchIsReadAgain(LocalKafka kafka)
            throws Exception {
        String dlq = "late-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic("late-output", 1, Map.of("max.message.bytes", "100000"));
        DeadLetterFixtures.connectLetters(kafka, dlq, "late-input", "late-output", "late", 3,
                i -> new RecordTooLargeException("too large"), "late-copy");
        Map<String, Object> settings = new HashMap<>(Map.of(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(), ReplayConfig.REPLAY_ID_CONFIG, "late-1", ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.BATCH_SIZE_CONFIG, "1", "txn.send.topic.metadata.max.age.ms", "3600000",
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "late-output"));

        try (ReplayEngine engine = new ReplayEngine(new ReplayConfig(settings), ReplayEngine.Mode.WRITE,
                ReplayListener.NONE)) {
            engine.start();
            ReplayProgress first = stepUntil(engine, p -> p.counts().replayed() == 1);
            // the topic's limit drops after the producer cached it: the next records pass the up-front check
            DeadLetterFixtures.lowerMaxMessageBytes(kafka, 2_000, "late-output");
            ReplayProgress rejected = engine.step();
            assertThat(rejected).as("the rejected batch committed nothing").isEqualTo(first);
            ReplayProgress done = stepUntil(engine, ReplayProgress::finished);
            assertThat(done.counts()).isEqualTo(new ReplayCounts(1, 2, 0, 0, 0, 0, 0, 0));
        }
        assertThat(committed(kafka, "late-output")).hasSize(1);
        assertThat(committed(kafka, dlq).subList(3, 5)).allSatisfy(r -> {
            assertThat(header(r, DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("1");
            assertThat(header(r, DeadLetterHeaders.CONNECT_EXCEPTION)).endsWith("RecordTooLargeException");
        });
    }

    @Test
    void secondInstanceOfAReplayFencesTheFirstAndResumesFromItsCommittedProgress(LocalKafka kafka) {
        String dlq = CliFixtures.sinkDlq(kafka, "twin", 10, i -> new RecordTooLargeException("too large"));
        ReplayConfig config = inBatchesOfTwo(kafka, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "twin-output",
                "twin-1");

        try (ReplayEngine first = new ReplayEngine(config, ReplayEngine.Mode.WRITE, ReplayListener.NONE);
             ReplayEngine second = new ReplayEngine(config, ReplayEngine.Mode.WRITE, ReplayListener.NONE)) {
            first.start();
            ReplayProgress committed = stepUntil(first, p -> p.counts().replayed() > 0);

            assertThat(second.start()).as("resumed from the first's committed progress").isEqualTo(committed);
            assertThatThrownBy(first::step).as("the first is fenced")
                    .satisfies(e -> assertThat(SendErrors.isFencing(e)).isTrue());
            assertThat(stepUntil(second, ReplayProgress::finished).counts())
                    .isEqualTo(new ReplayCounts(10, 0, 0, 0, 0, 0, 0, 0));
        }
        Map<String, Long> perKey = committed(kafka, "twin-output").stream()
                .collect(Collectors.groupingBy(r -> text(r.key()), Collectors.counting()));
        assertThat(perKey).hasSize(10).allSatisfy((key, n) -> assertThat(n).isOne());
    }

    private static ReplayProgress stepUntil(ReplayEngine engine, Predicate<ReplayProgress> done) {
        return Await.value("the replay to reach the expected progress", Duration.ofSeconds(120), () -> {
            ReplayProgress progress = engine.step();
            return done.test(progress) ? progress : null;
        });
    }

    @Test
    void aReplayStartedWithItsDryRunsOffsetsWritesNoDeadLetterThatArrivedAfterTheDryRun(LocalKafka kafka) {
        String dlq = "until-dlq";
        kafka.createTopic(dlq, 2, Map.of());
        kafka.createTopic("until-output", 1, Map.of());
        for (int i = 0; i < 10; i++) {
            untilLetter(kafka, dlq, "before-" + i);
        }
        Map<String, String> settings = new HashMap<>(Map.of(ReplayConfig.REPLAY_ID_CONFIG, "until-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "until-output",
                ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
        DryRunReport preview = ReplayEngine.dryRun(new ReplayConfig(settings), Duration.ofSeconds(60));
        assertThat(preview.byDestination()).containsExactly(Map.entry("until-output", 10L));
        assertThat(preview.until()).containsOnlyKeys(0, 1);
        for (int i = 0; i < 5; i++) {
            untilLetter(kafka, dlq, "after-" + i);
        }

        settings.put(ReplayConfig.UNTIL_OFFSETS_CONFIG, UntilOffsets.format(preview.until()));
        ReplayProgress done = runToEnd(kafka, settings);

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts()).isEqualTo(new ReplayCounts(10, 0, 0, 0, 0, 0, 0, 0));
        assertThat(done.endOffsets()).isEqualTo(preview.until());
        assertThat(committed(kafka, "until-output")).extracting(r -> text(r.key()))
                .as("exactly what the dry run read").hasSize(10).allMatch(key -> key.startsWith("before-"));
    }

    private static void untilLetter(LocalKafka kafka, String dlq, String key) {
        DeadLetterFixtures.rawLetter(kafka, dlq, key, "value",
                textHeader(DeadLetterHeaders.CONNECT_TOPIC, "until-input"),
                textHeader(DeadLetterHeaders.CONNECT_EXCEPTION, RecordTooLargeException.class.getName()),
                textHeader(DeadLetterHeaders.TARGET_TOPIC, "until-output"), CliFixtures.ourCategory());
    }

    private static Header textHeader(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aRecreatedDeadLetterTopicIsNotSkippedByOldRanges(LocalKafka kafka) throws Exception {
        String dlq = CliFixtures.sinkDlq(kafka, "recreated", 10, i -> new RecordTooLargeException("too large"));
        Map<String, String> settings = new HashMap<>(Map.of(ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "recreated-output",
                ReplayConfig.REPLAY_ID_CONFIG, "recreated-1"));
        ReplayProgress first = runToEnd(kafka, settings);
        assertThat(first.state()).isEqualTo(ReplayState.DONE);
        assertThat(first.counts().replayed()).isEqualTo(10);

        recreate(kafka, dlq);
        DeadLetterFixtures.connectLetters(kafka, dlq, "recreated-input", "recreated-output", "recreated-new", 10,
                i -> new RecordTooLargeException("too large"), "recreated-copy");
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, "recreated-2");
        ReplayProgress second = runToEnd(kafka, settings);

        assertThat(second.state()).isEqualTo(ReplayState.DONE);
        assertThat(second.counts().alreadyReplayed())
                .as("the new topic's dead letters at offsets 0..9 are not the old topic's").isZero();
        assertThat(second.counts().replayed()).isEqualTo(10);
        assertThat(committed(kafka, "recreated-output")).hasSize(20);
    }

    @Test
    void aReplayIsNotResumedOnADeadLetterTopicCreatedAgainUnderItsName(LocalKafka kafka) throws Exception {
        String dlq = CliFixtures.sinkDlq(kafka, "resumed", 10, i -> new RecordTooLargeException("too large"));
        ReplayConfig config = inBatchesOfTwo(kafka, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "resumed-output",
                "resumed-1");
        interruptedMidWay(config);
        recreate(kafka, dlq);
        DeadLetterFixtures.connectLetters(kafka, dlq, "resumed-input", "resumed-output", "resumed-new", 10,
                i -> new RecordTooLargeException("too large"), "resumed-copy");

        try (ReplayEngine engine = new ReplayEngine(config, ReplayEngine.Mode.WRITE, ReplayListener.NONE)) {
            assertThatThrownBy(engine::start).as("its offsets are of the deleted topic")
                    .isInstanceOf(ConfigException.class).hasMessageContaining(ReplayConfig.REPLAY_ID_CONFIG)
                    .hasMessageContaining("deleted");
        }
    }

    /**
     * A replay interrupted mid-way, its dead-letter topic then given a third partition with dead letters in it, and
     * resumed: the new partition lies outside the range the replay captured, so it finishes its range and reads none
     * of them. (The consumer of the replay before the fix was assigned the new partition too and failed on its first
     * record; here the range's records were always returned first and the replay finished before any of the new
     * partition's: this test passed without the fix. {@code DeadLetterRangeTest} shows the assignment.)
     */
    @Test
    void aResumedReplayFinishesItsRangeWhenItsDeadLetterTopicGainedAPartition(LocalKafka kafka) throws Exception {
        String dlq = CliFixtures.sinkDlq(kafka, "widened", 10, i -> new RecordTooLargeException("too large"));
        ReplayConfig config = inBatchesOfTwo(kafka, dlq, ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "widened-output",
                "widened-1");
        int partitionsBefore = interruptedMidWay(config).endOffsets().size();
        try (Admin admin = kafka.admin()) {
            admin.createPartitions(Map.of(dlq, NewPartitions.increaseTo(partitionsBefore + 1))).all()
                    .get(30, TimeUnit.SECONDS);
        }
        try (var producer = new KafkaProducer<>(kafka.clientProps(), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(dlq, partitionsBefore, null,
                        ("late-" + i).getBytes(StandardCharsets.UTF_8), new byte[] {1}, List.of(
                        textHeader(DeadLetterHeaders.TARGET_TOPIC, "widened-output"),
                        CliFixtures.ourCategory()))).get(30, TimeUnit.SECONDS);
            }
        }

        ReplayProgress done;
        try (ReplayEngine engine = new ReplayEngine(config, ReplayEngine.Mode.WRITE, ReplayListener.NONE)) {
            engine.start();
            done = stepUntil(engine, ReplayProgress::finished);
        }

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().replayed()).isEqualTo(10);
        assertThat(committed(kafka, "widened-output")).hasSize(10)
                .noneMatch(r -> text(r.key()).startsWith("late-"));
    }

    /**
     * A replay that keeps running while its dead-letter topic is deleted and created again: its consumer, assigned by
     * name, would go on at the new topic's offsets. It stops instead, writing nothing of the new topic, so that a
     * replay of the new topic (which the monitor no longer refuses as overlapping) is the only one that writes it.
     */
    @Test
    void aRunningReplayWhoseDeadLetterTopicIsCreatedAgainStopsAndWritesNothingOfTheNewTopic(LocalKafka kafka)
            throws Exception {
        String dlq = CliFixtures.sinkDlq(kafka, "reborn", 40, i -> new RecordTooLargeException("too large"));
        ReplayConfig config = inBatchesOfTwo(kafka, dlq, ReplayConfig.DESTINATION_CONFIG, "reborn-output", "reborn-1");
        try (ReplayEngine engine = new ReplayEngine(config, ReplayEngine.Mode.WRITE, ReplayListener.NONE)) {
            engine.start();
            long before = stepUntil(engine, p -> p.counts().replayed() > 0).counts().replayed();
            recreate(kafka, dlq);
            DeadLetterFixtures.connectLetters(kafka, dlq, "reborn-input", "reborn-output", "reborn-new", 40,
                    i -> new RecordTooLargeException("too large"), "reborn-copy");

            assertThatThrownBy(() -> stepUntil(engine, p -> false)).as("a step on the new topic")
                    .isInstanceOf(ConfigException.class).hasMessageContaining(dlq)
                    .hasMessageContaining("reborn-1").hasMessageContaining("deleted");

            assertThat(committed(kafka, "reborn-output")).as("nothing of the new topic written")
                    .noneMatch(r -> text(r.key()).contains("reborn-new"))
                    .hasSize((int) CliFixtures.progress(kafka, "reborn-1").orElseThrow().counts().replayed());
            assertThat(before).isPositive();
        }
    }

    /** A replay {@code replayId} of {@code dlq} in batches of two, {@code destinationSetting} set to {@code output}. */
    private static ReplayConfig inBatchesOfTwo(LocalKafka kafka, String dlq, String destinationSetting, String output,
                                               String replayId) {
        return new ReplayConfig(Map.of(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, destinationSetting, output, ReplayConfig.REPLAY_ID_CONFIG, replayId,
                ReplayConfig.BATCH_SIZE_CONFIG, "2"));
    }

    /** Runs the replay until it has read something, and leaves it there unfinished; returns its progress then. */
    private static ReplayProgress interruptedMidWay(ReplayConfig config) {
        try (ReplayEngine engine = new ReplayEngine(config, ReplayEngine.Mode.WRITE, ReplayListener.NONE)) {
            engine.start();
            ReplayProgress interrupted = stepUntil(engine, p -> p.offsetsRead() > 0);
            assertThat(interrupted.finished()).as("interrupted mid-way").isFalse();
            return interrupted;
        }
    }

    private static void recreate(LocalKafka kafka, String topic) throws Exception {
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            Await.until("topic " + topic + " deleted", Duration.ofSeconds(30),
                    () -> !admin.listTopics().names().toCompletionStage().toCompletableFuture().join().contains(topic));
        }
        kafka.createTopic(topic, 1, Map.of());
    }

    static ReplayProgress runToEnd(LocalKafka kafka, Map<String, String> settings) {
        Map<String, Object> all = new HashMap<>(settings);
        all.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (ReplayEngine engine = new ReplayEngine(new ReplayConfig(all), ReplayEngine.Mode.WRITE,
                ReplayListener.NONE)) {
            ReplayProgress progress = engine.start();
            while (!progress.finished()) {
                progress = engine.step();
            }
            return progress;
        }
    }

    static ReplayProgressReader reader(LocalKafka kafka) {
        return new ReplayProgressReader(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                ReplayConfig.PROGRESS_TOPIC_DEFAULT, Duration.ofSeconds(60));
    }

    private static void assertReplayedOnceWithOriginalHeaders(List<ConsumerRecord<byte[], byte[]>> records,
                                                              int expected) {
        Map<String, Long> perKey = records.stream().collect(Collectors.groupingBy(r -> text(r.key()),
                Collectors.counting()));
        assertThat(perKey).as("each replayed key once").hasSize(expected).allSatisfy((key, n) -> assertThat(n).isOne());
        assertThat(records).allSatisfy(r -> {
            assertThat(text(r.value())).isEqualTo(DeadLetterFixtures.largeValue(text(r.key())));
            assertThat(header(r, TRACE)).isEqualTo(text(r.key()));
            assertThat(header(r, DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("1");
            assertThat(names(r.headers())).allSatisfy(name -> assertThat(name)
                    .doesNotStartWith("__connect.errors.").doesNotStartWith("__streams.errors.")
                    .matches(n -> !n.startsWith("__quarantine.") || n.equals(DeadLetterHeaders.REPLAY_COUNT),
                            "no __quarantine. header but the replay count"));
        });
    }

    private static List<String> names(Iterable<Header> headers) {
        List<String> names = new ArrayList<>();
        headers.forEach(h -> names.add(h.key()));
        return names;
    }

}
