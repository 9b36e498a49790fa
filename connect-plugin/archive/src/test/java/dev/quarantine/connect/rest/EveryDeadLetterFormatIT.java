package dev.quarantine.connect.rest;

import static dev.quarantine.connect.rest.MonitorAnswers.counts;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.connect.ConnectsOwnDeadLetterQueue;
import dev.quarantine.replay.RealDeadLetterWriters;
import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.RecordPositions;
import dev.quarantine.connect.rest.aggregation.DeadLetterRecord;

/**
 * The dead letters of four real writers, each as its users run it, on one real worker JVM loading the plugin archive
 * with the monitor's default topic pattern: Spring Kafka's {@code DeadLetterPublishingRecoverer} ({@code <topic>-dlt},
 * its group an HTML fragment), the 4.4 broker for a share group whose consumer rejects records ({@code dlq.<topic>}),
 * a stock Kafka Streams app's own dead-letter queue from a deserialization error, and Kafka Connect's own
 * ({@code errors.tolerance=all}, a converter that cannot read a record). The monitor counts and classifies each, and
 * the dashboard, in a real headless Chromium, shows every row with its format, original position, error class and
 * group or application, as text.
 */
@ExtendWith(LocalKafkaExtension.class)
@Tag("browser") // some tests drive the dashboard in headless Chromium: the browser tier, workers started once
class EveryDeadLetterFormatIT {

    private static final Duration SETTLED = Duration.ofSeconds(180);
    private static final String PREFIX = "fmt-" + Long.toHexString(System.nanoTime()).substring(6);
    private static final int LETTERS = 4;
    private static final long TWO_DAYS_AGO = System.currentTimeMillis() - Duration.ofDays(2).toMillis();

    private static final String ORDERS = PREFIX + "-orders";
    private static final String SPRING_DLT = ORDERS + "-dlt";
    /** The group Spring writes into {@code kafka_dlt-original-consumer-group}: markup that must stay text. */
    private static final String SPRING_GROUP = DeadLetterTestData.IMAGE;
    private static final String PAYMENTS = PREFIX + "-payments";
    private static final String SHARE_DLQ = "dlq." + PAYMENTS;
    private static final String SHARE_GROUP = PREFIX + "-payers";
    private static final String READINGS = PREFIX + "-readings";
    private static final String STREAMS_DLQ = READINGS + "-dlq";
    private static final String JSON = PREFIX + "-json";
    private static final String CONNECT_DLQ = JSON + "-dlq";
    private static final String CONNECTOR = PREFIX + "-json-copy";

    private static LocalKafka kafka;
    private static LocalConnect worker;
    /** Per dead-letter topic, the rows the dashboard must show: position to format, origin, error class, group. */
    private static final Map<String, Map<String, List<String>>> EXPECTED_ROWS = new LinkedHashMap<>();

    @BeforeAll
    static void everyWriterDeadLettersItsRecords(LocalKafka localKafka) throws Exception {
        kafka = localKafka;
        kafka.createTopic(ORDERS, 3, Map.of());
        kafka.createTopic(SPRING_DLT, 3, Map.of());
        kafka.createTopic(PAYMENTS, 2, Map.of());
        kafka.createTopic(SHARE_DLQ, 1, Map.of("errors.deadletterqueue.group.enable", "true"));
        kafka.createTopic(READINGS, 2, Map.of());
        kafka.createTopic(STREAMS_DLQ, 1, Map.of());
        kafka.createTopic(JSON, 1, Map.of());
        kafka.createTopic(CONNECT_DLQ, 1, Map.of());
        kafka.createTopic("copy." + JSON, 1, Map.of());
        kafka.createTopic(PREFIX + "-quiet", 1, Map.of());

        springDeadLetters();
        shareGroupDeadLetters();
        streamsDeadLetters();
        worker = BasicAuthWorkers.monitoring(kafka, PREFIX, Map.of(
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "1000",
                MonitorConfig.RETRY_AFTER_SECONDS_CONFIG, "1")).start();
        connectDeadLetters();
    }

    @AfterAll
    static void stopWorker() {
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void theMonitorCountsAndClassifiesTheDeadLettersOfEveryWriter() {
        Map<String, Map<String, Long>> byErrorClass = Map.of(
                SPRING_DLT, Map.of(IllegalStateException.class.getName(), (long) LETTERS),
                SHARE_DLQ, Map.of(DeadLetterRecord.UNKNOWN, (long) LETTERS),
                STREAMS_DLQ, Map.of(SerializationException.class.getName(), (long) LETTERS),
                CONNECT_DLQ, Map.of(DataException.class.getName(), (long) LETTERS));
        Map<String, String> originals = Map.of(SPRING_DLT, ORDERS, SHARE_DLQ, PAYMENTS, STREAMS_DLQ, READINGS,
                CONNECT_DLQ, JSON);
        Map<String, String> groups = Map.of(SPRING_DLT, SPRING_GROUP, SHARE_DLQ, SHARE_GROUP,
                STREAMS_DLQ, DeadLetterRecord.UNKNOWN, CONNECT_DLQ, CONNECTOR);

        for (String dlq : EXPECTED_ROWS.keySet()) {
            JsonNode detail = awaitTotal(dlq);
            assertThat(counts(detail.path("by_error_class"))).as(dlq).isEqualTo(byErrorClass.get(dlq));
            assertThat(counts(detail.path("by_original_topic"))).as(dlq)
                    .isEqualTo(Map.of(originals.get(dlq), (long) LETTERS));
            assertThat(counts(detail.path("by_connector_or_application"))).as(dlq)
                    .isEqualTo(Map.of(groups.get(dlq), (long) LETTERS));
            assertThat(DashboardFigures.records(ok("/dead-letters/" + dlq + "/records?limit=20")))
                    .as("the JSON records of %s", dlq).isEqualTo(EXPECTED_ROWS.get(dlq));
        }
    }

    @Test
    void theDashboardShowsEveryFormatsRowsWithOriginErrorClassAndGroupAsText() throws Exception {
        EXPECTED_ROWS.keySet().forEach(EveryDeadLetterFormatIT::awaitTotal);
        try (DashboardPage page = DashboardPage.open(worker.restUrl(), BasicAuthWorkers.USER,
                BasicAuthWorkers.PASSWORD)) {
            page.await(() -> page.overview().keySet().containsAll(EXPECTED_ROWS.keySet()),
                    () -> "every writer's topic in the overview: " + page.overview().keySet());
            for (Map.Entry<String, Map<String, List<String>>> topic : EXPECTED_ROWS.entrySet()) {
                page.openTopicWithKeyboard(topic.getKey());

                assertThat(page.records()).as("the rows of %s", topic.getKey()).isEqualTo(topic.getValue());
                page.screenshot("format-" + page.records().values().iterator().next().get(0));
                page.backToOverview();
            }
            assertThat(page.script("return window.__pwned === undefined")).as("no markup ran").isEqualTo(true);
            assertThat(page.count("img")).isZero();
            assertThat(page.consoleErrors()).isEmpty();
        }
    }

    /** Four orders two days old, dead-lettered by Spring's recoverer. */
    private static void springDeadLetters() {
        List<ConsumerRecord<byte[], byte[]>> failed = produce(ORDERS, 3, LETTERS, i -> "{\"order\":" + i + "}");
        RealDeadLetterWriters.spring(kafka, failed, SPRING_GROUP,
                new IllegalStateException(DeadLetterTestData.SCRIPT));
        expect(SPRING_DLT, DeadLetterFormat.SPRING, failed, IllegalStateException.class.getName(), SPRING_GROUP);
    }

    /** Four payments the share group's consumer rejects; the broker dead-letters them. */
    private static void shareGroupDeadLetters() throws Exception {
        RealDeadLetterWriters.shareGroupDlq(kafka, SHARE_GROUP, SHARE_DLQ);
        List<ConsumerRecord<byte[], byte[]>> failed = produce(PAYMENTS, 2, LETTERS, i -> "{\"id\":" + i + "}");
        RealDeadLetterWriters.rejectAll(kafka, SHARE_GROUP, PAYMENTS, LETTERS, SETTLED);
        expect(SHARE_DLQ, DeadLetterFormat.SHARE_GROUP, failed, DeadLetterRecord.UNKNOWN, SHARE_GROUP);
    }

    /** Readings whose every value but four is an int; Kafka Streams dead-letters the four. */
    private static void streamsDeadLetters() throws Exception {
        List<ConsumerRecord<byte[], byte[]>> all = produceReadings();
        List<ConsumerRecord<byte[], byte[]>> failed = all.stream().filter(r -> r.value().length != Integer.BYTES)
                .toList();
        RealDeadLetterWriters.streamsOwnDlq(kafka, PREFIX + "-meter", READINGS, STREAMS_DLQ,
                Files.createTempDirectory("every-format-streams"), LETTERS, SETTLED);
        expect(STREAMS_DLQ, DeadLetterFormat.STREAMS, failed, SerializationException.class.getName(),
                DeadLetterRecord.UNKNOWN);
    }

    /** A sink whose JsonConverter cannot read four records, with Kafka Connect's own dead-letter queue. */
    private static void connectDeadLetters() {
        List<ConsumerRecord<byte[], byte[]>> all = produce(JSON, 1, 3 * LETTERS, i -> i % 3 == 1
                ? "{not json " + i : "{\"n\":" + i + "}");
        List<ConsumerRecord<byte[], byte[]>> failed = all.stream().filter(r -> text(r.value()).startsWith("{not"))
                .toList();
        worker.createConnector(CONNECTOR, ConnectsOwnDeadLetterQueue.jsonCopy(kafka.bootstrapServers(), JSON,
                PREFIX + "-quiet", CONNECT_DLQ));
        Await.until(() -> LETTERS + " dead letters in " + CONNECT_DLQ, SETTLED,
                () -> TopicReader.readCommitted(kafka, CONNECT_DLQ, Duration.ofSeconds(10)).size() >= LETTERS);
        // paused, so a task moving cannot deliver a record twice to Connect's (non-transactional) dead-letter queue
        worker.pauseConnector(CONNECTOR);
        expect(CONNECT_DLQ, DeadLetterFormat.CONNECT, failed, DataException.class.getName(),
                CONNECTOR + " · task 0 · VALUE_CONVERTER");
    }

    /**
     * Reads {@code dlq} and records, per dead letter (found by its key among {@code failed}), the row the dashboard
     * must show: format, the failed record's position, error class and group or application.
     */
    private static void expect(String dlq, DeadLetterFormat format, List<ConsumerRecord<byte[], byte[]>> failed,
                               String errorClass, String group) {
        List<ConsumerRecord<byte[], byte[]>> letters = Await.value(() -> LETTERS + " dead letters in " + dlq, SETTLED,
                () -> {
                    List<ConsumerRecord<byte[], byte[]>> now = TopicReader.readCommitted(kafka, dlq,
                            Duration.ofSeconds(10));
                    return now.size() >= LETTERS ? now : null;
                });
        assertThat(letters).as(dlq).hasSize(LETTERS);
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> letter : letters) {
            ConsumerRecord<byte[], byte[]> original = OtherWritersLetters.byKey(failed, letter.key());
            rows.put(RecordPositions.of(letter.topic(), letter.partition(), letter.offset()), List.of(format.label(),
                    RecordPositions.of(original.topic(), original.partition(), original.offset()), errorClass, group));
        }
        EXPECTED_ROWS.put(dlq, rows);
    }

    /** {@code count} records two days old, keys {@code <topic>-i} in partition {@code i % partitions}. */
    private static List<ConsumerRecord<byte[], byte[]>> produce(String topic, int partitions, int count,
                                                               IntFunction<String> value) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, TWO_DAYS_AGO + i, bytes(topic + "-" + i),
                        bytes(value.apply(i))));
            }
        }
        return TopicReader.readCommitted(kafka, topic, SETTLED);
    }

    /** Twelve readings two days old; four values are text, not the four bytes of an int. */
    private static List<ConsumerRecord<byte[], byte[]>> produceReadings() {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 3 * LETTERS; i++) {
                byte[] value = i % 3 == 0 ? bytes("not an int " + i) : Serdes.Integer().serializer()
                        .serialize(READINGS, i);
                producer.send(new ProducerRecord<>(READINGS, i % 2, TWO_DAYS_AGO + i, bytes(READINGS + "-" + i),
                        value));
            }
        }
        return TopicReader.readCommitted(kafka, READINGS, SETTLED);
    }

    /** The detail of {@code dlq} once the monitor counts all its letters. */
    private static JsonNode awaitTotal(String dlq) {
        return MonitorAnswers.awaitTotal(worker, dlq, LETTERS, SETTLED);
    }

    private static JsonNode ok(String path) {
        return MonitorAnswers.ok(worker, path, SETTLED);
    }
}
