package dev.quarantine.connect.rest;

import static dev.quarantine.connect.rest.MonitorAnswers.counts;
import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.replay.letters.HeaderText;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.ConnectRest;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.RecordPositions;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;
import dev.quarantine.connect.rest.discovery.SubscriptionWidth;
import dev.quarantine.connect.rest.peers.PeerAuth;
import dev.quarantine.connect.rest.http.BrowserLoginChallenge;
import dev.quarantine.connect.rest.dashboard.DashboardResource;
import dev.quarantine.connect.rest.aggregation.DeadLetterRecord;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.peers.Peers;

/**
 * End to end: two real Connect workers of one group, each its own JVM loading the plugin from plugin.path, both with
 * the monitor (and a peer secret) and Kafka's BasicAuthSecurityRestExtension (which the workers' calls to each other
 * never meet: they go to the monitor's peer listener). Both run the monitor on their own kafka-streams (the
 * Apache Kafka distribution's layout; the plugin archive has none). Dead-letter topics: the
 * transactional sink's, Kafka Connect's own (a connector whose converter fails), and ones named in the settings
 * holding records with Kafka Streams' headers, with none, and hostile ones (headers over 64 KB, not UTF-8).
 *
 * <p>The connectors are paused once their dead letters are written, so every topic holds still; a test that stops a
 * worker, freezes the broker or lets a forged peer join restores the cluster before it ends, and expects the totals
 * the topics hold at its start: the tests do not depend on their order.
 */
@ExtendWith(LocalKafkaExtension.class)
@Tag("browser") // some tests drive the dashboard in headless Chromium: the browser tier, workers started once
class DeadLetterMonitorIT {

    private static final String SINK = "dev.quarantine.connect.sink.TransactionalKafkaSinkConnector";
    private static final String AUTH = ConnectRest.basicAuth("operator", "s3cret");
    private static final String PEER_SECRET = "monitor-it-peer-secret-0123456789-abcdefghijkl";
    private static final Duration SETTLED = Duration.ofSeconds(120);
    private static final String PREFIX = "mon-" + Long.toHexString(System.nanoTime()).substring(6);
    private static final String SINK_DLQ = PREFIX + "-sink-dlq";
    private static final String CONNECT_DLQ = PREFIX + "-connect-dlq";
    private static final String MANUAL_DLQ = PREFIX + "-manual-dlq";
    private static final String QUIET_DLQ = PREFIX + "-quiet-dlq";
    private static final String HOSTILE_DLQ = PREFIX + "-hostile-dlq";
    private static final String LATER_DLQ = PREFIX + "-later-dlq";
    private static final String SCRIPTED_DLQ = PREFIX + "-scripted-dlq";
    /** The workers' dead-letter topic pattern: the default (part of the aggregation's application.id). */
    private static final Optional<Pattern> WORKERS_PATTERN =
            Optional.of(Pattern.compile(MonitorConfig.TOPICS_REGEX_DEFAULT));
    private static final List<String> DLQS = List.of(SINK_DLQ, CONNECT_DLQ, MANUAL_DLQ, QUIET_DLQ, HOSTILE_DLQ,
            LATER_DLQ, SCRIPTED_DLQ);
    private static final List<String> PAYLOADS = List.of("poison-value", "not json", "secret-payload");
    private static final int SINK_POISON = 6;
    private static final int BAD_JSON = 4;
    private static final int HOSTILE = 9;

    private static LocalKafka kafka;
    private static LocalConnect first;
    private static LocalConnect second;
    private static final PeerRequests peers = new PeerRequests();

    @BeforeAll
    static void startTwoWorkersAndDeadLetterRecords(LocalKafka localKafka) throws Exception {
        kafka = localKafka;
        assertThat(BuiltPlugin.workerClasspath()).anyMatch(p -> p.getFileName().toString().startsWith("kafka-streams"));

        first = worker().start();
        second = worker().start();
        createTopicsAndConnectors();
        awaitTotals(first, Map.of(SINK_DLQ, (long) SINK_POISON, CONNECT_DLQ, (long) BAD_JSON, MANUAL_DLQ, 5L,
                QUIET_DLQ, 0L, HOSTILE_DLQ, (long) HOSTILE, LATER_DLQ, 0L, SCRIPTED_DLQ, 3L));
        // a task that moves re-delivers records since its last commit, and Kafka Connect's own dead-letter queue
        // (not transactional) then holds duplicates: paused connectors keep every topic still
        for (String connector : List.of(PREFIX + "-copy", PREFIX + "-json-copy")) {
            first.pauseConnector(connector);
            Await.until(() -> connector + " PAUSED: " + first.status(connector),
                    SETTLED, () -> first.status(connector).findValuesAsText("state").stream()
                    .allMatch("PAUSED"::equals));
        }
    }

    @AfterAll
    static void stopWorkers() {
        for (LocalConnect worker : new LocalConnect[] {first, second}) {
            if (worker != null) {
                worker.close();
            }
        }
    }

    @Test
    void pluginArchiveBundlesNeitherKafkaStreamsNorRocksDbJacksonOrJaxRs() throws Exception {
        Path zip;
        try (var files = Files.list(BuiltPlugin.PLUGIN_PATH.getParent())) {
            zip = files.filter(p -> p.getFileName().toString().matches("kafka-quarantine-connect-.*\\.zip"))
                    .findFirst().orElseThrow();
        }
        List<String> jars;
        try (java.util.zip.ZipFile archive = new java.util.zip.ZipFile(zip.toFile())) {
            jars = archive.stream().map(e -> e.getName()).filter(n -> n.endsWith(".jar"))
                    .map(n -> n.replaceAll(".*/", "")).toList();
        }
        assertThat(jars).contains("streams-handlers-" + System.getProperty("quarantine.version") + ".jar")
                .noneMatch(j -> j.matches("(kafka-streams|rocksdbjni|jackson|jakarta|jersey|kafka-clients|slf4j).*"));
        assertThat(Files.size(zip)).as("archive size").isLessThan(5L << 20);
    }

    @Test
    void bothWorkersReportExactlyWhatWasDeadLetteredFromEveryPartition() {
        awaitTotals(first, expectedTotals());
        assertThat(held(SINK_DLQ)).isEqualTo(SINK_POISON);
        assertThat(held(CONNECT_DLQ)).isEqualTo(BAD_JSON);
        for (LocalConnect worker : List.of(first, second)) {
            JsonNode sink = ok(worker, "/dead-letters/" + SINK_DLQ);
            assertThat(sink.path("complete").asBoolean()).isTrue();
            assertThat(sink.path("total").asLong()).isEqualTo(SINK_POISON);
            assertThat(sink.path("by_original_topic").path(PREFIX + "-a").asLong()).isEqualTo(SINK_POISON);
            assertThat(sink.path("by_connector_or_application").path(PREFIX + "-copy").asLong()).isEqualTo(SINK_POISON);
            assertThat(counts(sink.path("by_error_class"))).containsOnlyKeys(
                    "org.apache.kafka.common.errors.RecordTooLargeException");
            assertThat(sink.path("per_minute").findValues("count").stream().mapToLong(JsonNode::asLong).sum())
                    .isEqualTo(SINK_POISON);
            assertThat(sink.path("rate_15m").asDouble()).isPositive();

            JsonNode connect = ok(worker, "/dead-letters/" + CONNECT_DLQ);
            assertThat(connect.path("total").asLong()).isEqualTo(BAD_JSON);
            assertThat(connect.path("by_original_topic").path(PREFIX + "-json").asLong()).isEqualTo(BAD_JSON);
            assertThat(connect.path("by_connector_or_application").path(PREFIX + "-json-copy").asLong())
                    .isEqualTo(BAD_JSON);
            assertThat(counts(connect.path("by_error_class"))).containsOnlyKeys(
                    "org.apache.kafka.connect.errors.DataException");

            JsonNode manual = ok(worker, "/dead-letters/" + MANUAL_DLQ);
            assertThat(counts(manual.path("by_error_class"))).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "org.apache.kafka.common.errors.RecordTooLargeException", 2L, DeadLetterRecord.UNKNOWN, 3L));
            assertThat(counts(manual.path("by_original_topic"))).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "orders", 2L, DeadLetterRecord.UNKNOWN, 3L));
        }
    }

    @Test
    void recentRecordsShowWhereAndWhy() {
        JsonNode answer = ok(second, "/dead-letters/" + SINK_DLQ + "/records?limit=4");

        assertThat(answer.path("records")).hasSize(4);
        JsonNode first = answer.path("records").get(0);
        assertThat(first.path("topic").asText()).isEqualTo(SINK_DLQ);
        assertThat(first.path("error_class").asText()).endsWith("RecordTooLargeException");
        assertThat(first.path("original").path("topic").asText()).isEqualTo(PREFIX + "-a");
        assertThat(first.path("original").path("offset").isIntegralNumber()).isTrue();
        assertThat(first.path("value_size").asInt()).isGreaterThan(0);
        assertThat(first.path("format").asText()).isEqualTo("connect");
    }

    @Test
    void recentRecordsOfOurSinksAndConnectsOwnDeadLettersShowTheTimeOfTheRecordThatFailed() {
        awaitTotals(first, expectedTotals());
        Map<String, String> inputTimes = new HashMap<>();
        for (String input : List.of(PREFIX + "-a", PREFIX + "-json")) {
            for (ConsumerRecord<byte[], byte[]> r : TopicReader.readCommitted(kafka, input, Duration.ofSeconds(30))) {
                inputTimes.put(RecordPositions.of(r.topic(), r.partition(), r.offset()),
                        Instant.ofEpochMilli(r.timestamp()).toString());
            }
        }
        for (Map.Entry<String, Integer> dlq : Map.of(SINK_DLQ, SINK_POISON, CONNECT_DLQ, BAD_JSON).entrySet()) {
            JsonNode records = ok(second, "/dead-letters/" + dlq.getKey() + "/records?limit=100").path("records");
            assertThat(records).as(dlq.getKey()).hasSize(dlq.getValue()).allSatisfy(record -> {
                String original = record.path("original").path("position").asText();
                assertThat(record.path("timestamp").asText()).as("dead letter of %s", original)
                        .isEqualTo(inputTimes.get(original));
            });
        }
    }

    @Test
    void noEndpointOfEitherWorkerShowsKeysValuesOrErrorMessagesByDefault() {
        for (LocalConnect worker : List.of(first, second)) {
            List<String> paths = new ArrayList<>(List.of("/dead-letters"));
            for (String topic : DLQS) {
                paths.add("/dead-letters/" + topic);
                paths.add("/dead-letters/" + topic + "/records?limit=100");
            }
            for (String path : paths) {
                JsonNode answer = ok(worker, path);
                assertThat(answer.findValues("key_base64")).as(path).isEmpty();
                assertThat(answer.findValues("value_base64")).as(path).isEmpty();
                assertThat(answer.findValues("error_message")).as(path).isEmpty();
                assertThat(answer.toString()).as(path).doesNotContain(PAYLOADS);
            }
        }
        assertThat(ok(first, "/dead-letters/" + CONNECT_DLQ + "/records?limit=100").path("records")).hasSize(BAD_JSON);
    }

    @Test
    void countsRecordsWithHeadersOver64KbAndNotUtf8AndKeepsEveryStringShort() {
        for (LocalConnect worker : List.of(first, second)) {
            JsonNode hostile = ok(worker, "/dead-letters/" + HOSTILE_DLQ);
            Map<String, Long> classes = counts(hostile.path("by_error_class"));

            assertThat(hostile.path("total").asLong()).isEqualTo(HOSTILE).isEqualTo(held(HOSTILE_DLQ));
            assertThat(classes).as("an over-long or not UTF-8 header is no class name: unknown")
                    .containsExactlyInAnyOrderEntriesOf(Map.of("D", 2L, DeadLetterRecord.UNKNOWN, 6L,
                            "org.example.After", 1L));
            JsonNode records = ok(worker, "/dead-letters/" + HOSTILE_DLQ + "/records?limit=100").path("records");
            assertThat(records).hasSize(HOSTILE);
            records.forEach(r -> List.of("error_class", "connector_or_application", "task", "stage").forEach(f ->
                    assertThat(r.path(f).asText()).as(f).hasSizeLessThanOrEqualTo(HeaderText.MAX_NAME_CHARS + 3)));
        }
    }

    @Test
    void refusesACallWithoutCredentialsAndAcceptsItWithThem() {
        Answer anonymous = ConnectRest.at(first.restUrl()).get("/dead-letters");
        Answer wrong = ConnectRest.at(first.restUrl())
                .withAuthorization(ConnectRest.basicAuth("operator", "guess")).get("/dead-letters");

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(anonymous.text()).doesNotContain(SINK_DLQ);
        assertThat(ok(first, "/dead-letters").path("topics").findValuesAsText("topic")).contains(SINK_DLQ);
    }

    @Test
    void dashboardIsBehindTheWorkersAuthenticationAndChallengesABrowserToSignIn() {
        Answer anonymous = ConnectRest.at(first.restUrl()).get("/dead-letters/ui");
        Answer signedIn = ConnectRest.at(first.restUrl()).withAuthorization(AUTH).get("/dead-letters/ui");
        Answer script = ConnectRest.at(first.restUrl()).withAuthorization(AUTH).get("/dead-letters/ui/dashboard.js");

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValue(BrowserLoginChallenge.CHALLENGE);
        assertThat(anonymous.text()).doesNotContain("dashboard.js");
        assertThat(List.of(signedIn, script)).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Security-Policy"))
                    .hasValue(DashboardResource.CONTENT_SECURITY_POLICY);
            assertThat(answer.text()).doesNotContain(PEER_SECRET, "s3cret");
        });
        assertThat(signedIn.text()).contains("src=\"ui/dashboard.js\"");
    }

    @Test
    void dashboardShowsWhatTheJsonEndpointsAnswerAndOpensATopicFromTheKeyboard() throws Exception {
        awaitTotals(first, expectedTotals());
        try (DashboardPage page = DashboardPage.open(first.restUrl(), "operator", "s3cret")) {
            Await.until(() -> "the overview showing the JSON's figures; shows " + page.overview()
                    + ", JSON " + DashboardFigures.overview(ok(first, "/dead-letters")), SETTLED, () -> page.overview().equals(DashboardFigures.overview(ok(first,
                    "/dead-letters"))));
            assertThat(page.grandTotal()).isEqualTo(ok(first, "/dead-letters").path("total").asText());
            assertThat(page.overview()).containsKeys(SINK_DLQ, CONNECT_DLQ, SCRIPTED_DLQ);
            page.screenshot("overview-1280");

            for (String topic : List.of(SINK_DLQ, CONNECT_DLQ)) {
                page.openTopicWithKeyboard(topic);
                JsonNode detail = ok(first, "/dead-letters/" + topic);
                JsonNode records = ok(first, "/dead-letters/" + topic + "/records?limit=20");
                assertThat(page.text("t-total")).isEqualTo(detail.path("total").asText());
                assertThat(page.bars("t-errors")).isEqualTo(DashboardFigures.counts(detail.path("by_error_class")));
                assertThat(page.bars("t-origins")).isEqualTo(DashboardFigures.counts(detail.path("by_original_topic")));
                assertThat(page.bars("t-connectors"))
                        .isEqualTo(DashboardFigures.counts(detail.path("by_connector_or_application")));
                assertThat(page.records()).isEqualTo(DashboardFigures.records(records));
                assertThat(page.minutesChartBars()).isEqualTo(16);
                assertThat(page.displayed("replay-form")).as("the replay form, this worker serving replays").isTrue();
                assertThat(page.displayed("replay-off")).isFalse();
                page.screenshot("topic-" + (topic.equals(SINK_DLQ) ? "sink" : "connect") + "-1280");
                page.backToOverview();
            }

            page.resize(390, 844);
            page.awaitRefresh();
            assertThat(page.overflowsSideways()).as("the overview wider than a phone").isFalse();
            page.screenshot("overview-phone");
            page.openTopicWithKeyboard(SINK_DLQ);
            assertThat(page.overflowsSideways()).as("a topic's view wider than a phone").isFalse();
            page.screenshot("topic-sink-phone");
            assertThat(page.consoleErrors()).isEmpty();
        }
    }

    @Test
    void dashboardStartsAFilteredReplayAndShowsItComplete() throws Exception {
        String destination = PREFIX + "-replayed-from-ui";
        kafka.createTopic(destination, 1, Map.of());
        try (DashboardPage page = DashboardPage.open(first.restUrl(), "operator", "s3cret")) {
            page.openTopicWithKeyboard(SINK_DLQ);

            page.startReplay("org.apache.kafka.common.errors.RecordTooLargeException", destination, 50, 2_000_000);

            page.await(() -> "DONE".equals(page.text("replay-state")),
                    () -> "the replay DONE (state '" + page.text("replay-state") + "')");
            assertThat(page.text("r-replayed")).isEqualTo(String.valueOf(SINK_POISON));
            Answer config = ConnectRest.at(first.restUrl()).withAuthorization(AUTH)
                    .get("/connectors/" + page.text("replay-id") + "/config");
            assertThat(config.status()).as(config.text()).isEqualTo(200);
            assertThat(config.body().path(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG).asText())
                    .as("the form's speed limits, in the replay connector's config").isEqualTo("50");
            assertThat(config.body().path(ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG).asText()).isEqualTo("2000000");
            assertThat(page.text("r-filtered")).isEqualTo("0");
            page.screenshot("replay-done");
            assertThat(page.consoleErrors()).isEmpty();
        }
        assertThat(TopicReader.readCommitted(kafka, destination, Duration.ofSeconds(30))).hasSize(SINK_POISON);
    }

    @Test
    void aRunningReplaysProgressIsAnsweredEveryTimeThePageAsksFromTheStart() {
        // MANUAL_DLQ, which no other test replays: a finished replay makes its letters "already replayed" for later ones
        String destination = PREFIX + "-replayed-polled";
        kafka.createTopic(destination, 1, Map.of());
        JsonNode started = first.rest().call("POST", "/dead-letters/" + MANUAL_DLQ + "/replays", Map.of("destination",
                destination, "maxRecordsPerSecond", 2, "replayAgain", true), 202);
        String path = "/dead-letters/" + MANUAL_DLQ + "/replays/" + started.path("id").asText();
        List<Answer> refused = new ArrayList<>();
        List<String> states = new ArrayList<>();
        Await.until(() -> "the replay DONE; states " + states + ", refused " + refused, SETTLED, () -> {
            Answer answer = first.rest().get(path);
            if (answer.status() != 200) {
                refused.add(answer);
                return false;
            }
            String state = answer.body().path("state").asText();
            if (states.isEmpty() || !states.get(states.size() - 1).equals(state)) {
                states.add(state);
            }
            return "DONE".equals(state);
        });

        assertThat(refused).as("answers other than 200 while the replay ran (states %s)", states).isEmpty();
    }

    @Test
    void dashboardShowsScriptsAndMarkupFromDeadLettersAsTextAndRunsNone() throws Exception {
        awaitTotals(first, expectedTotals());
        try (DashboardPage page = DashboardPage.open(second.restUrl(), "operator", "s3cret")) {
            page.openTopicWithKeyboard(SCRIPTED_DLQ);

            assertThat(page.bars("t-errors")).as("markup is no class name")
                    .containsExactlyEntriesOf(Map.of(DeadLetterRecord.UNKNOWN, "3"));
            assertThat(page.bars("t-origins")).containsExactlyEntriesOf(Map.of(DeadLetterTestData.IMAGE, "3"));
            assertThat(page.bars("t-connectors")).containsExactlyEntriesOf(Map.of(DeadLetterTestData.IMAGE, "3"));
            assertThat(page.records().values()).hasSize(3).allSatisfy(row -> {
                assertThat(row.get(0)).isEqualTo(DeadLetterFormat.CONNECT.label());
                assertThat(row.get(1)).matches(Pattern.quote(DeadLetterTestData.IMAGE + "-0@") + "[567]");
                assertThat(row.get(2)).isEqualTo(DeadLetterRecord.UNKNOWN);
                assertThat(row.get(3)).startsWith(DeadLetterTestData.IMAGE);
            });
            page.script("window.__sameDocument = true");
            page.awaitRefresh();
            assertThat(page.script("return window.__sameDocument")).as("refreshed without reloading").isEqualTo(true);
            assertThat(page.script("return window.__pwned === undefined")).isEqualTo(true);
            assertThat(page.title()).isEqualTo("Dead letters: " + SCRIPTED_DLQ);
            assertThat(page.count("img")).isZero();
            assertThat(page.count("script")).as("only the page's own scripts, each from its head")
                    .isEqualTo(page.count("head > script[src^='ui/']"));
            assertThat(page.consoleErrors()).isEmpty();
        }
    }

    @Test
    void answersBadParametersWithA400AndAnUnknownTopicWithA404EachNamingTheProblemAndARequestId() {
        Answer unknown = first.rest().get("/dead-letters/no-such-topic");
        Answer malformed = first.rest().get("/dead-letters/bad%20name");
        Answer tooMany = first.rest().get("/dead-letters/" + SINK_DLQ + "/records?limit=100000");
        Answer notANumber = first.rest().get("/dead-letters/" + SINK_DLQ + "/records?limit=ten");

        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().path("category").asText()).isEqualTo("NOT_FOUND");
        assertThat(unknown.body().path("message").asText()).contains("no-such-topic", "GET /dead-letters");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.body().path("message").asText()).contains("not a legal topic name");
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body().path("message").asText()).contains("limit", "1 to 100");
        assertThat(notANumber.status()).isEqualTo(400);
        assertThat(List.of(unknown, malformed, tooMany, notANumber)).allSatisfy(a -> {
            assertThat(a.body().path("error_code").asInt()).isEqualTo(a.status());
            assertThat(a.body().path("request_id").asText()).isNotBlank();
            assertThat(a.text()).doesNotContain("\tat ", "Exception:");
        });
    }

    @Test
    void answersASharesRequestOnlyWithAValidPeerSignature() {
        PeerAuth auth = peerAuth(Clock.systemUTC());
        Map<String, String> params = Peers.params(List.of(0), new PartitionFigures.Query(null, 0));
        PeerAuth.Proof forOther = PeerRequests.proof(auth, "127.0.0.1:1", params);
        PeerAuth.Proof stale = PeerRequests.proof(peerAuth(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-90))),
                PeerRequests.address(first), params);

        Answer unsigned = ConnectRest.at(PeerRequests.url(first))
                .get(Peers.PARTIALS_FULL_PATH + "?partitions=0&records=0", Map.of());
        Answer onTheRestApi = first.rest().get(Peers.PARTIALS_FULL_PATH + "?partitions=0&records=0");
        Answer forged = peers.send(first, params, new PeerAuth.Proof(System.currentTimeMillis(),
                "Zm9yZ2VkLW5vbmNlLTAxMjM", PeerRequests.SENDER, "Zm9yZ2Vk"));
        Answer replayed = peers.send(first, params, forOther);
        Answer old = peers.send(first, params, stale);
        Map<String, String> unmonitored = Peers.params(List.of(0), new PartitionFigures.Query("not-monitored", 0));
        Answer notMonitored = peers.send(first, unmonitored, PeerRequests.proof(auth, PeerRequests.address(first),
                unmonitored));

        assertThat(List.of(unsigned, forged, replayed, old)).allSatisfy(a -> {
            assertThat(a.status()).as(a.text()).isEqualTo(401);
            assertThat(a.body().path("category").asText()).isEqualTo("UNAUTHORIZED");
            assertThat(a.text()).doesNotContain(SINK_DLQ, "127.0.0.1");
        });
        assertThat(notMonitored.status()).as(notMonitored.text()).isEqualTo(404);
        assertThat(onTheRestApi.status()).as("the REST API serves no shares").isEqualTo(400);
    }

    @Test
    void answersASignedRequestForAPartitionElsewhereWith421AndForOneNobodyHoldsWith500WithoutDetails() {
        awaitTotals(first, expectedTotals());
        PeerAuth auth = peerAuth(Clock.systemUTC());
        Map<Integer, Answer> byPartition = new HashMap<>();
        Await.until(() -> "one partition held here (200) and one elsewhere (421): " + byPartition, SETTLED, () -> {
            for (int partition = 0; partition < 3; partition++) {
                byPartition.put(partition, peers.signedShare(auth, first, partition));
            }
            return byPartition.values().stream().anyMatch(a -> a.status() == 200)
                    && byPartition.values().stream().anyMatch(a -> a.status() == 421);
        });
        Answer moved = byPartition.values().stream().filter(a -> a.status() == 421).findFirst().orElseThrow();
        Answer nobody = peers.signedShare(auth, first, 40);

        assertThat(moved.body().path("category").asText()).isEqualTo("MIGRATED");
        assertThat(nobody.status()).as(nobody.text()).isEqualTo(500);
        assertThat(nobody.body().path("category").asText()).isEqualTo("FATAL");
        assertThat(List.of(moved, nobody)).allSatisfy(a -> {
            assertThat(a.body().has("owner")).isFalse();
            assertThat(a.body().path("request_id").asText()).isNotBlank();
            assertThat(a.text()).doesNotContain("127.0.0.1", "Exception", "\tat ");
            assertThat(a.headers().firstValue(PeerAuth.SIGNATURE_HEADER)).as("a signed answer").isPresent();
        });
    }

    @Test
    void aForgedPeerGetsNoCredentialAndItsFiguresAreNeverServed() throws Exception {
        Map<String, Long> expected = expectedTotals();
        awaitTotals(first, expected);
        List<Answer> seen = new ArrayList<>();
        try (ForgedPeer forger = ForgedPeer.join(kafka, monitorApplicationId(), new MonitoredTopics(Map.of(), DLQS,
                WORKERS_PATTERN), SINK_DLQ)) {
            Await.until(() -> "a worker asking the forged peer for its share; answers: " + statuses(seen),
                    SETTLED, () -> {
                seen.add(first.rest().get("/dead-letters"));
                seen.add(second.rest().get("/dead-letters"));
                return !forger.requests().isEmpty();
            });

            assertThat(forger.requests()).allSatisfy(headers -> {
                assertThat(headers.keySet()).noneMatch(name -> name.equalsIgnoreCase("Authorization"))
                        .anyMatch(name -> name.equalsIgnoreCase(PeerAuth.SIGNATURE_HEADER));
                assertThat(headers.toString()).doesNotContain(AUTH.substring("Basic ".length()));
            });
        }
        assertThat(seen).allSatisfy(answer -> assertExactOrRetryLater(answer, expected))
                .anyMatch(answer -> answer.status() == 503);
        awaitTotals(first, expected);
        awaitTotals(second, expected);
    }

    @Test
    void whenAWorkerIsKilledTheOtherAnswers503ThenExactFiguresAgain() {
        Map<String, Long> expected = expectedTotals();
        awaitTotals(first, expected);
        awaitTotals(second, expected);
        List<Answer> seen = new ArrayList<>();
        second.kill();
        try {
            awaitAnswer(first, seen, a -> a.status() == 503, "a 503 while the killed worker still holds its share");
            awaitAnswer(first, seen, a -> a.status() == 200, "exact figures once the survivor holds every partition");
        } finally {
            second.start();
        }
        assertThat(seen).allSatisfy(answer -> assertExactOrRetryLater(answer, expected));
        awaitTotals(second, expected);
        awaitTotals(first, expected);
    }

    @Test
    void whileKafkaIsFrozenAnswersAreExactOr503AndAfterwardsNewDeadLettersAreCounted() throws Exception {
        Map<String, Long> before = expectedTotals();
        awaitTotals(first, before);
        awaitTotals(second, before);
        List<Answer> seen = new ArrayList<>();
        kafka.pause();
        try {
            Instant resume = Instant.now().plusSeconds(30);
            while (Instant.now().isBefore(resume)) {
                seen.add(first.rest().get("/dead-letters"));
                seen.add(second.rest().get("/dead-letters"));
                Thread.sleep(250); // pacing the polls over the freeze, not waiting for anything
            }
        } finally {
            kafka.resume();
        }
        DeadLetterTestData.produce(kafka, LATER_DLQ, 3, "org.example.Later");
        Map<String, Long> after = expectedTotals();

        assertThat(seen).allSatisfy(answer -> assertExactOrRetryLater(answer, before));
        assertThat(after.get(LATER_DLQ)).isEqualTo(before.get(LATER_DLQ) + 3);
        awaitTotals(first, after);
        awaitTotals(second, after);
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
        kafka.createTopic(HOSTILE_DLQ, 2, Map.of());
        kafka.createTopic(LATER_DLQ, 1, Map.of());
        kafka.createTopic(SCRIPTED_DLQ, 1, Map.of());
        DeadLetterTestData.produceHostile(kafka, HOSTILE_DLQ);
        DeadLetterTestData.produceScripted(kafka, SCRIPTED_DLQ);
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
        first.createConnector(PREFIX + "-copy", props(
                "connector.class", SINK, "tasks.max", "2", "topics", PREFIX + "-a",
                "consumer.override.isolation.level", "read_committed",
                "target.bootstrap.servers", kafka.bootstrapServers(), "target.topic.format", "copy.${topic}",
                "dlq.topic.name", SINK_DLQ));
        second.createConnector(PREFIX + "-json-copy", props(
                "connector.class", SINK, "tasks.max", "1", "topics", PREFIX + "-json",
                "consumer.override.isolation.level", "read_committed",
                "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable", "false",
                "target.value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "target.value.converter.schemas.enable", "false",
                "target.bootstrap.servers", kafka.bootstrapServers(), "target.topic.format", "copy.${topic}",
                "dlq.topic.name", QUIET_DLQ,
                "errors.tolerance", "all", "errors.deadletterqueue.topic.name", CONNECT_DLQ,
                "errors.deadletterqueue.context.headers.enable", "true",
                "errors.deadletterqueue.topic.replication.factor", "1"));
        first.awaitRunning(PREFIX + "-copy", 2, SETTLED);
        first.awaitRunning(PREFIX + "-json-copy", 1, SETTLED);
    }

    /**
     * Exact figures, or one of the two documented "retry later" answers: 503 (not ready, a worker did not answer) or,
     * while the group moves partitions (a worker killed or joining), 421 MIGRATED from a real peer that no longer
     * holds them; never figures that are wrong, and never an address or an exception in the body.
     */
    private static void assertExactOrRetryLater(Answer answer, Map<String, Long> expected) {
        assertThat(answer.status()).as(answer.text()).isIn(200, 503, MonitorException.MISDIRECTED);
        if (answer.status() == 503) {
            assertThat(answer.retryAfter()).isNotBlank();
            assertThat(answer.body().path("category").asText()).isEqualTo("RETRYABLE");
            assertThat(answer.text()).doesNotContain("127.0.0.1", "Exception");
        } else if (answer.status() == MonitorException.MISDIRECTED) {
            assertThat(answer.body().path("category").asText()).isEqualTo("MIGRATED");
            assertThat(answer.text()).doesNotContain("127.0.0.1", "Exception");
        } else {
            assertThat(answer.body().path("complete").asBoolean()).isTrue();
            assertThat(totals(answer.body())).containsAllEntriesOf(expected);
        }
    }

    private static void awaitAnswer(LocalConnect worker, List<Answer> seen, Predicate<Answer> wanted, String what) {
        Await.until(() -> what + " from " + worker.restUrl() + "; answers: " + statuses(seen), SETTLED, () -> {
            Answer answer = worker.rest().get("/dead-letters");
            seen.add(answer);
            return wanted.test(answer);
        });
    }

    private static String statuses(List<Answer> answers) {
        return answers.stream().map(a -> String.valueOf(a.status())).collect(Collectors.joining(","))
                + (answers.isEmpty() ? "" : "; last: " + answers.get(answers.size() - 1).text());
    }

    private static PeerAuth peerAuth(Clock clock) {
        return new PeerAuth(Optional.of(new Password(PEER_SECRET)), clock);
    }

    /** The application.id the workers' aggregation has once it monitors every test topic, as wide as they are now. */
    private static String monitorApplicationId() {
        try (SubscriptionWidth width = new SubscriptionWidth(kafka::admin)) {
            return PREFIX + "-connect" + WorkerSettings.APPLICATION_ID_SUFFIX + "-"
                    + width.of(new MonitoredTopics(Map.of(), DLQS, WORKERS_PATTERN)).fingerprint();
        }
    }

    /** What every dead-letter topic holds now. */
    private static Map<String, Long> expectedTotals() {
        Map<String, Long> totals = new HashMap<>();
        DLQS.forEach(topic -> totals.put(topic, held(topic)));
        return totals;
    }

    private static LocalConnect worker() {
        return BasicAuthWorkers.monitoring(kafka, PREFIX, props(
                MonitorConfig.TOPICS_CONFIG, String.join(",", MANUAL_DLQ, HOSTILE_DLQ, LATER_DLQ, SCRIPTED_DLQ),
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "1000",
                MonitorConfig.RETRY_AFTER_SECONDS_CONFIG, "1",
                MonitorConfig.PEER_SECRET_CONFIG, PEER_SECRET,
                MonitorConfig.FORWARD_TIMEOUT_MS_CONFIG, "3000",
                MonitorConfig.STREAMS_PREFIX + "session.timeout.ms", "6000",
                MonitorConfig.STREAMS_PREFIX + "heartbeat.interval.ms", "2000"));
    }

    private static void awaitTotals(LocalConnect worker, Map<String, Long> expected) {
        Answer[] last = new Answer[1];
        Await.until(() -> "totals " + expected + " on " + worker.restUrl() + "; last answer: " + last[0],
                SETTLED, () -> {
            last[0] = worker.rest().get("/dead-letters");
            return last[0].status() == 200 && totals(last[0].body()).entrySet().containsAll(expected.entrySet());
        });
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

    private static JsonNode ok(LocalConnect worker, String path) {
        return MonitorAnswers.ok(worker, path, SETTLED);
    }

    private static Map<String, String> props(String... keysAndValues) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }
}
