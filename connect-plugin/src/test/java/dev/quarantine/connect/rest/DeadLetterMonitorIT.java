package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.connect.rest.MonitorHttp.Answer;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * End to end: two real Connect workers of one group, each its own JVM loading the plugin from plugin.path, both with
 * the monitor and Kafka's BasicAuthSecurityRestExtension. The first worker's classpath has no kafka-streams (the
 * plugin's copy runs), the second's has it (the worker's copy runs). Three dead-letter topics: the transactional
 * sink's, Kafka Connect's own (a connector whose converter fails), and one named in the settings holding records
 * with Kafka Streams' headers and with none.
 */
@ExtendWith(LocalKafkaExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeadLetterMonitorIT {

    private static final Path PLUGIN_PATH = Path.of(System.getProperty("quarantine.plugin.path", "target/plugin"));
    private static final Path CLASSPATH = Path.of(System.getProperty("quarantine.worker.classpath",
            "target/connect-worker-classpath.txt"));
    private static final String SINK = "dev.quarantine.connect.sink.TransactionalKafkaSinkConnector";
    private static final String AUTH = LocalConnect.basicAuth("operator", "s3cret");
    private static final Duration SETTLED = Duration.ofSeconds(120);
    private static final String PREFIX = "mon-" + Long.toHexString(System.nanoTime()).substring(6);
    private static final String SINK_DLQ = PREFIX + "-sink-dlq";
    private static final String CONNECT_DLQ = PREFIX + "-connect-dlq";
    private static final String MANUAL_DLQ = PREFIX + "-manual-dlq";
    private static final String QUIET_DLQ = PREFIX + "-quiet-dlq";
    private static final int SINK_POISON = 6;
    private static final int BAD_JSON = 4;

    private static LocalKafka kafka;
    private static LocalConnect plain;
    private static LocalConnect withStreams;
    private static final MonitorHttp http = new MonitorHttp();

    @BeforeAll
    static void startTwoWorkersAndDeadLetterRecords(LocalKafka localKafka) throws Exception {
        kafka = localKafka;
        Path jaas = jaasConfig();
        List<Path> classpath = LocalConnect.readClasspath(CLASSPATH);
        List<Path> basicAuth = new ArrayList<>(classpath);
        basicAuth.add(jarOf(BasicAuthSecurityRestExtension.class));
        basicAuth.add(jarOf(BasicAuthOnKafka44.class)); // target/test-classes: the shim and its service file
        List<Path> streamsToo = new ArrayList<>(basicAuth);
        streamsToo.add(jarOf(KafkaStreams.class));
        assertThat(classpath).noneMatch(p -> p.getFileName().toString().startsWith("kafka-streams"));

        plain = worker(basicAuth, jaas).start();
        withStreams = worker(streamsToo, jaas).start();
        createTopicsAndConnectors();
    }

    @AfterAll
    static void stopWorkers() {
        for (LocalConnect worker : new LocalConnect[] {plain, withStreams}) {
            if (worker != null) {
                worker.close();
            }
        }
    }

    @Test
    @Order(0)
    void pluginArchiveBundlesKafkaStreamsButNotRocksDbJacksonOrJaxRs() throws Exception {
        Path zip;
        try (var files = Files.list(PLUGIN_PATH.getParent())) {
            zip = files.filter(p -> p.getFileName().toString().matches("kafka-quarantine-connect-.*\\.zip"))
                    .findFirst().orElseThrow();
        }
        List<String> jars;
        try (java.util.zip.ZipFile archive = new java.util.zip.ZipFile(zip.toFile())) {
            jars = archive.stream().map(e -> e.getName()).filter(n -> n.endsWith(".jar"))
                    .map(n -> n.replaceAll(".*/", "")).toList();
        }
        assertThat(jars).contains("kafka-streams-4.4.0.jar", "streams-handlers-0.1.0-SNAPSHOT.jar")
                .noneMatch(j -> j.matches("(rocksdbjni|jackson|jakarta|jersey|kafka-clients|slf4j).*"));
        assertThat(Files.size(zip)).as("archive size").isLessThan(5L << 20);
    }

    @Test
    @Order(1)
    void bothWorkersReportExactlyWhatWasDeadLetteredFromEveryPartition() {
        awaitTotals(plain, Map.of(SINK_DLQ, (long) SINK_POISON, CONNECT_DLQ, (long) BAD_JSON, MANUAL_DLQ, 5L,
                QUIET_DLQ, 0L));
        assertThat(held(SINK_DLQ)).isEqualTo(SINK_POISON);
        assertThat(held(CONNECT_DLQ)).isEqualTo(BAD_JSON);
        for (LocalConnect worker : List.of(plain, withStreams)) {
            JsonNode sink = ok(worker, "/dead-letters/" + SINK_DLQ);
            assertThat(sink.path("total").asLong()).isEqualTo(SINK_POISON);
            assertThat(sink.path("by_original_topic").path(PREFIX + "-a").asLong()).isEqualTo(SINK_POISON);
            assertThat(sink.path("by_connector_or_application").path(PREFIX + "-copy").asLong()).isEqualTo(SINK_POISON);
            assertThat(fields(sink.path("by_error_class"))).containsOnlyKeys(
                    "org.apache.kafka.common.errors.RecordTooLargeException");
            assertThat(sink.path("per_minute").findValues("count").stream().mapToLong(JsonNode::asLong).sum())
                    .isEqualTo(SINK_POISON);
            assertThat(sink.path("rate_15m").asDouble()).isPositive();

            JsonNode connect = ok(worker, "/dead-letters/" + CONNECT_DLQ);
            assertThat(connect.path("total").asLong()).isEqualTo(BAD_JSON);
            assertThat(connect.path("by_original_topic").path(PREFIX + "-json").asLong()).isEqualTo(BAD_JSON);
            assertThat(connect.path("by_connector_or_application").path(PREFIX + "-json-copy").asLong())
                    .isEqualTo(BAD_JSON);
            assertThat(fields(connect.path("by_error_class"))).containsOnlyKeys(
                    "org.apache.kafka.connect.errors.DataException");

            JsonNode manual = ok(worker, "/dead-letters/" + MANUAL_DLQ);
            assertThat(fields(manual.path("by_error_class"))).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "org.apache.kafka.common.errors.RecordTooLargeException", 2L, DeadLetterRecord.UNKNOWN, 3L));
            assertThat(fields(manual.path("by_original_topic"))).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "orders", 2L, DeadLetterRecord.UNKNOWN, 3L));
        }
    }

    @Test
    @Order(2)
    void recentRecordsShowWhereAndWhyButNoPayloadByDefault() {
        awaitTotals(plain, Map.of(SINK_DLQ, (long) SINK_POISON));
        JsonNode answer = ok(withStreams, "/dead-letters/" + SINK_DLQ + "/records?limit=4");

        assertThat(answer.path("records")).hasSize(4);
        JsonNode first = answer.path("records").get(0);
        assertThat(first.path("topic").asText()).isEqualTo(SINK_DLQ);
        assertThat(first.path("error_class").asText()).endsWith("RecordTooLargeException");
        assertThat(first.path("original").path("topic").asText()).isEqualTo(PREFIX + "-a");
        assertThat(first.path("original").path("offset").isIntegralNumber()).isTrue();
        assertThat(first.path("value_size").asInt()).isGreaterThan(0);
        assertThat(first.path("headers").asText()).isEqualTo("connect");
        assertThat(first.has("key_base64")).isFalse();
        assertThat(first.has("value_base64")).isFalse();
        assertThat(answer.toString()).doesNotContain("poison-value");
    }

    @Test
    @Order(3)
    void refusesACallWithoutCredentialsAndAcceptsItWithThem() {
        Answer anonymous = http.get(plain.restUrl(), "/dead-letters", null);
        Answer wrong = http.get(plain.restUrl(), "/dead-letters", LocalConnect.basicAuth("operator", "guess"));

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(anonymous.text()).doesNotContain(SINK_DLQ);
        assertThat(http.get(plain.restUrl(), "/dead-letters", AUTH).status()).isIn(200, 503);
    }

    @Test
    @Order(4)
    void answersBadParametersWithAClearFourHundred() {
        Answer unknown = http.get(plain.restUrl(), "/dead-letters/no-such-dlq", AUTH);
        Answer malformed = http.get(plain.restUrl(), "/dead-letters/bad%20name", AUTH);
        Answer tooMany = http.get(plain.restUrl(), "/dead-letters/" + SINK_DLQ + "/records?limit=100000", AUTH);
        Answer notANumber = http.get(plain.restUrl(), "/dead-letters/" + SINK_DLQ + "/records?limit=ten", AUTH);

        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().path("category").asText()).isEqualTo("NOT_FOUND");
        assertThat(unknown.body().path("message").asText()).contains("no-such-dlq", "GET /dead-letters");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.body().path("message").asText()).contains("not a legal topic name");
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body().path("message").asText()).contains("limit", "1 to 100");
        assertThat(notANumber.status()).isEqualTo(400);
        assertThat(List.of(unknown, malformed, tooMany, notANumber)).allSatisfy(a -> {
            assertThat(a.body().path("error_code").asInt()).isEqualTo(a.status());
            assertThat(a.text()).doesNotContain("\tat ", "Exception:");
        });
    }

    @Test
    @Order(5)
    void theOtherWorkerAnswersRightDuringAndAfterTheRebalanceWhenOneStops() throws Exception {
        // the connectors pause first: a task that moves re-delivers records since its last commit, and Kafka
        // Connect's own dead-letter queue (not transactional) then holds duplicates; the figures must be what the
        // topics hold, so they must hold still
        for (String connector : List.of(PREFIX + "-copy", PREFIX + "-json-copy")) {
            withStreams.pauseConnector(connector);
            LocalConnect.await(SETTLED, () -> withStreams.status(connector).findValuesAsText("state").stream()
                    .allMatch("PAUSED"::equals), () -> connector + " PAUSED: " + withStreams.status(connector));
        }
        Map<String, Long> expected = new HashMap<>();
        for (String topic : List.of(SINK_DLQ, CONNECT_DLQ, MANUAL_DLQ, QUIET_DLQ)) {
            expected.put(topic, held(topic));
        }
        awaitTotals(withStreams, expected);
        awaitTotals(plain, expected);
        List<Answer> seen = new CopyOnWriteArrayList<>();
        AtomicBoolean polling = new AtomicBoolean(true);
        Thread poller = new Thread(() -> {
            while (polling.get()) {
                seen.add(http.get(withStreams.restUrl(), "/dead-letters", AUTH));
            }
        }, "monitor-poller");
        poller.start();
        plain.stop();
        awaitTotals(withStreams, expected);
        polling.set(false);
        poller.join(60_000);

        assertThat(seen).isNotEmpty().allSatisfy(answer -> {
            assertThat(answer.status()).as(answer.text()).isIn(200, 503);
            if (answer.status() == 503) {
                assertThat(answer.retryAfter()).isNotBlank();
                assertThat(answer.body().path("category").asText()).isEqualTo("RETRYABLE");
            } else {
                assertThat(totals(answer.body())).containsAllEntriesOf(expected);
            }
        });
    }

    private static void createTopicsAndConnectors() throws Exception {
        kafka.createTopic(PREFIX + "-a", 2, Map.of());
        kafka.createTopic("copy." + PREFIX + "-a", 2, Map.of("max.message.bytes", "4096"));
        kafka.createTopic(PREFIX + "-json", 3, Map.of());
        kafka.createTopic("copy." + PREFIX + "-json", 3, Map.of());
        kafka.createTopic(SINK_DLQ, 2, Map.of());
        kafka.createTopic(CONNECT_DLQ, 3, Map.of());
        kafka.createTopic(MANUAL_DLQ, 2, Map.of());
        kafka.createTopic(QUIET_DLQ, 1, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 60; i++) {
                byte[] value = (i % 10 == 3 ? "poison-value".repeat(600) : "good-" + i).getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(PREFIX + "-a", i % 2, bytes("k" + i), value));
            }
            for (int i = 0; i < 40; i++) {
                String value = i % 10 == 7 ? "not json " + i : "{\"id\":" + i + "}";
                producer.send(new ProducerRecord<>(PREFIX + "-json", i % 3, bytes("k" + i), bytes(value)));
            }
            for (int i = 0; i < 5; i++) {
                RecordHeaders headers = new RecordHeaders();
                if (i < 2) {
                    headers.add(DeadLetterHeaders.STREAMS_EXCEPTION,
                            bytes("org.apache.kafka.common.errors.RecordTooLargeException"));
                    headers.add(DeadLetterHeaders.STREAMS_TOPIC, bytes("orders"));
                    headers.add(DeadLetterHeaders.STREAMS_PARTITION, bytes("0"));
                    headers.add(DeadLetterHeaders.STREAMS_OFFSET, bytes(String.valueOf(100 + i)));
                }
                producer.send(new ProducerRecord<>(MANUAL_DLQ, i % 2, null, bytes("m" + i), bytes("v" + i), headers));
            }
        }
        plain.createConnector(PREFIX + "-copy", props(
                "connector.class", SINK, "tasks.max", "2", "topics", PREFIX + "-a",
                "target.bootstrap.servers", kafka.bootstrapServers(), "target.topic.format", "copy.${topic}",
                "dlq.topic.name", SINK_DLQ));
        withStreams.createConnector(PREFIX + "-json-copy", props(
                "connector.class", SINK, "tasks.max", "1", "topics", PREFIX + "-json",
                "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable", "false",
                "target.value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "target.value.converter.schemas.enable", "false",
                "target.bootstrap.servers", kafka.bootstrapServers(), "target.topic.format", "copy.${topic}",
                "dlq.topic.name", QUIET_DLQ,
                "errors.tolerance", "all", "errors.deadletterqueue.topic.name", CONNECT_DLQ,
                "errors.deadletterqueue.context.headers.enable", "true",
                "errors.deadletterqueue.topic.replication.factor", "1"));
        plain.awaitRunning(PREFIX + "-copy", 2, SETTLED);
        plain.awaitRunning(PREFIX + "-json-copy", 1, SETTLED);
    }

    private static LocalConnect worker(List<Path> classpath, Path jaas) {
        Map<String, String> overrides = props(
                "group.id", PREFIX + "-connect",
                "config.storage.topic", PREFIX + "-configs",
                "offset.storage.topic", PREFIX + "-offsets",
                "status.storage.topic", PREFIX + "-status",
                "rest.extension.classes", DeadLetterRestExtension.class.getName() + ","
                        + BasicAuthOnKafka44.class.getName(),
                MonitorConfig.TOPICS_CONFIG, MANUAL_DLQ,
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "1000",
                MonitorConfig.RETRY_AFTER_SECONDS_CONFIG, "1");
        return LocalConnect.create(kafka, PLUGIN_PATH, classpath, overrides)
                .withJvmOptions("-Djava.security.auth.login.config=" + jaas)
                .withBasicAuth("operator", "s3cret");
    }

    private static Path jaasConfig() throws Exception {
        Path dir = Files.createTempDirectory("monitor-it-auth");
        Path users = Files.writeString(dir.resolve("users.properties"), "operator=s3cret\n");
        return Files.writeString(dir.resolve("connect.jaas"), "KafkaConnect {\n"
                + "  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule required\n"
                + "  file=\"" + users + "\";\n};\n");
    }

    private static void awaitTotals(LocalConnect worker, Map<String, Long> expected) {
        Answer[] last = new Answer[1];
        LocalConnect.await(SETTLED, () -> {
            last[0] = http.get(worker.restUrl(), "/dead-letters", AUTH);
            return last[0].status() == 200 && totals(last[0].body()).entrySet().containsAll(expected.entrySet());
        }, () -> "totals " + expected + " on " + worker.restUrl() + "; last answer: " + last[0]);
    }

    /** How many committed records {@code topic} holds. */
    private static long held(String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(30)).size();
    }

    private static Map<String, Long> totals(JsonNode summary) {
        Map<String, Long> totals = new HashMap<>();
        summary.path("topics").forEach(t -> totals.put(t.path("topic").asText(), t.path("total").asLong()));
        return totals;
    }

    /** The body of a 200 answer to {@code path}, asking again while the monitor answers 503. */
    private static JsonNode ok(LocalConnect worker, String path) {
        Answer[] last = new Answer[1];
        LocalConnect.await(SETTLED, () -> {
            last[0] = http.get(worker.restUrl(), path, AUTH);
            return last[0].status() != 503;
        }, () -> "an answer other than 503 to GET " + path + "; last: " + last[0]);
        assertThat(last[0].status()).as("GET %s: %s", path, last[0].text()).isEqualTo(200);
        return last[0].body();
    }

    private static Map<String, Long> fields(JsonNode object) {
        Map<String, Long> fields = new HashMap<>();
        object.fields().forEachRemaining(e -> fields.put(e.getKey(), e.getValue().asLong()));
        return fields;
    }

    private static Map<String, String> props(String... keysAndValues) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Path jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
