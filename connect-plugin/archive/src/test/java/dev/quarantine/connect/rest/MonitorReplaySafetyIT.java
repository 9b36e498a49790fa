package dev.quarantine.connect.rest;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.connect.HttpRequests;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayListener;
import dev.quarantine.replay.ReplayState;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * The monitor's replay endpoints on a shared cluster, on one real worker JVM loading the plugin archive: Kafka's
 * basic authentication with two users, and an authorizer ({@link ConnectorWritesForOperators}) that lets only
 * {@value #OPERATOR} change connectors while {@value #VIEWER} may read them and call the monitor. The worker's client
 * settings include two of type PASSWORD that PLAINTEXT never uses. Each test replays a dead-letter topic of its own
 * (Kafka Connect's header format, 5 dead letters going back to that test's target topic).
 */
@ExtendWith(LocalKafkaExtension.class)
@Tag("browser") // some tests drive the dashboard in headless Chromium: the browser tier, workers started once
class MonitorReplaySafetyIT {

    private static final String OPERATOR = ConnectorWritesForOperators.OPERATOR;
    private static final String VIEWER = "viewer";
    private static final String OPERATOR_AUTH = ConnectRest.basicAuth(OPERATOR, "s3cret");
    private static final String VIEWER_AUTH = ConnectRest.basicAuth(VIEWER, "look-only");
    private static final String TRUSTSTORE_PASSWORD = "truststore-secret-0123";
    private static final String TRUSTSTORE_CERTIFICATES = "-----BEGIN CERTIFICATE----- not-a-real-one";
    private static final Duration LANDED = Duration.ofSeconds(120);
    private static final int DEAD_LETTERS = 5;
    private static final int CANCEL_ROUNDS = 9;
    private static final String PREFIX = "safe-" + Long.toHexString(System.nanoTime()).substring(6);
    /** The key of a dead letter whose headers forge a destination (a connector's key, for the config topic). */
    private static final String FORGED = "connector-evil-" + PREFIX + "-";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static LocalKafka kafka;
    private static LocalConnect worker;

    @BeforeAll
    static void startAWorkerWithTwoUsers(LocalKafka localKafka) {
        kafka = localKafka;
        Map<String, String> settings = new HashMap<>(Map.of(
                "group.id", PREFIX + "-connect",
                "config.storage.topic", PREFIX + "-configs",
                "offset.storage.topic", PREFIX + "-offsets",
                "status.storage.topic", PREFIX + "-status",
                "rest.extension.classes", BasicAuthWorkers.REST_EXTENSIONS + ","
                        + ConnectorWritesForOperators.class.getName(),
                MonitorConfig.TOPICS_REGEX_CONFIG, PREFIX + "-[a-z]+-dlq",
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "1000",
                MonitorConfig.REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG, "1",
                "ssl.truststore.password", TRUSTSTORE_PASSWORD,
                "ssl.truststore.certificates", TRUSTSTORE_CERTIFICATES));
        // every test waits until the aggregation reads the topic it has just created, which it finds at its
        // consumer's next metadata refresh: within 5 s, not the monitor's 30 s
        settings.put(MonitorConfig.STREAMS_PREFIX + StreamsConfig.consumerPrefix(
                ConsumerConfig.METADATA_MAX_AGE_CONFIG), "5000");
        // a test that deletes a monitored topic makes the aggregation replace its stream thread, whose member stays
        // in the group until its session times out: 6 s, as in DeadLetterMonitorIT, not Kafka's 45 s (twice in a
        // row, a later test waited 90 s for the aggregation to read its topic)
        settings.put(MonitorConfig.STREAMS_PREFIX + "session.timeout.ms", "6000");
        settings.put(MonitorConfig.STREAMS_PREFIX + "heartbeat.interval.ms", "2000");
        // broad on purpose: the worker's and the monitor's own topics match it too, and must still be refused
        settings.put(MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG, PREFIX + "-.*|__.*|"
                + ReplayConfig.PROGRESS_TOPIC_DEFAULT);
        worker = BasicAuthWorkers.signedIn(LocalConnect.create(kafka, BuiltPlugin.PLUGIN_PATH,
                BasicAuthWorkers.classpath(BuiltPlugin.workerClasspath()), settings),
                Map.of(OPERATOR, "s3cret", VIEWER, "look-only")).start();
    }

    @AfterAll
    static void stopWorker() {
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void aPasswordClientSettingOfTheWorkerNeverAppearsInTheReplayConnectorsConfig() throws Exception {
        String dlq = deadLetters("password");

        String id = started(post(dlq, "{}", OPERATOR_AUTH, null));

        // right after a create, Connect itself answers 409, or 500 "a rebalance is expected", until its group settles
        HttpResponse<String> config = Await.value("the config of replay connector " + id, LANDED, () -> {
            HttpResponse<String> answer = send("GET", "/connectors/" + id + "/config", null, OPERATOR_AUTH, null);
            return answer.statusCode() == 200 ? answer : null;
        });
        assertThat(JSON.readTree(config.body()).has("bootstrap.servers")).isTrue();
        assertThat(config.body()).doesNotContain("ssl.truststore.password", "ssl.truststore.certificates",
                TRUSTSTORE_PASSWORD, TRUSTSTORE_CERTIFICATES);
        assertThat(awaitState(dlq, id, "DONE").path("counts").path("replayed").asLong()).isEqualTo(DEAD_LETTERS);
    }

    @Test
    void aSecondReplayOfADeadLetterTopicWhileOneIsStartingIsRefusedNamingIt() throws Exception {
        String dlq = deadLetters("overlap");
        String first;
        // an open transaction on the progress topic holds every replay at its start (it reads its committed
        // progress first) and hides nothing committed before it: the first replay stays STARTING meanwhile
        try (KafkaProducer<byte[], byte[]> holder = progressTopicHolder()) {
            first = started(post(dlq, "{}", OPERATOR_AUTH, null));

            HttpResponse<String> second = post(dlq, "{}", OPERATOR_AUTH, null);

            assertThat(second.statusCode()).as(second.body()).isEqualTo(409);
            assertThat(second.body()).contains(first, "STARTING");
            holder.abortTransaction();
        }
        assertThat(awaitState(dlq, first, "DONE").path("counts").path("replayed").asLong()).isEqualTo(DEAD_LETTERS);
        assertThat(started(post(dlq, "{}", OPERATOR_AUTH, null))).as("a replay once the first is DONE")
                .isNotEqualTo(first);
    }

    @Test
    void aStartWhileACommandLineReplayOfTheTopicIsRunningIsRefusedNamingItUntilItIsCancelled() throws Exception {
        String dlq = deadLetters("cli");
        String cli = PREFIX + "-cli-1";
        // what bin/quarantine replay commits when it starts (the same engine), left RUNNING as by a killed process
        try (ReplayEngine engine = new ReplayEngine(new ReplayConfig(Map.of(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(), ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.REPLAY_ID_CONFIG, cli,
                ReplayConfig.DESTINATION_CONFIG, target("cli"))), ReplayEngine.Mode.WRITE, ReplayListener.NONE)) {
            assertThat(engine.start().state()).isEqualTo(ReplayState.RUNNING);
        }

        HttpResponse<String> refused = post(dlq, "{}", OPERATOR_AUTH, null);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        assertThat(refused.body()).contains("replay " + cli + " of the same topic is RUNNING")
                .contains("DELETE /dead-letters/" + dlq + "/replays/" + cli);
        assertThat(replayConnectorsOf(dlq)).as("no connector created").isEmpty();

        HttpResponse<String> cancelled = send("DELETE", replays(dlq) + "/" + cli, null, OPERATOR_AUTH, null);
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        String id = started(post(dlq, "{}", OPERATOR_AUTH, null));
        assertThat(awaitState(dlq, id, "DONE").path("counts").path("replayed").asLong()).isEqualTo(DEAD_LETTERS);
    }

    @Test
    void replaysOfDisjointOffsetRangesRunTogetherAndAnOverlappingOneIsRefused() throws Exception {
        String dlq = deadLetters("ranges", java.util.Collections.nCopies(20, target("ranges")));
        String first;
        String second;
        // held STARTING by an open transaction on the progress topic, as in the test above
        try (KafkaProducer<byte[], byte[]> holder = progressTopicHolder()) {
            first = started(post(dlq, "{\"offsetRanges\":\"0:0-9\"}", OPERATOR_AUTH, null));

            HttpResponse<String> disjoint = post(dlq, "{\"offsetRanges\":\"0:10-19\"}", OPERATOR_AUTH, null);
            HttpResponse<String> overlapping = post(dlq, "{\"offsetRanges\":\"0:5-14\"}", OPERATOR_AUTH, null);
            HttpResponse<String> everything = post(dlq, "{}", OPERATOR_AUTH, null);
            HttpResponse<String> onePosition = post(dlq, "{\"offsets\":\"0@12\"}", OPERATOR_AUTH, null);

            second = started(disjoint);
            for (HttpResponse<String> refused : List.of(overlapping, everything, onePosition)) {
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
                assertThat(refused.body()).containsAnyOf(first, second);
            }
            holder.abortTransaction();
        }
        assertThat(awaitState(dlq, first, "DONE").path("counts").path("replayed").asLong()).isEqualTo(10);
        assertThat(awaitState(dlq, second, "DONE").path("counts").path("replayed").asLong()).isEqualTo(10);
        assertThat(TopicReader.readCommitted(kafka, target("ranges"), Duration.ofSeconds(30))).hasSize(20);
    }

    @Test
    void retryingAStartWithTheSameIdempotencyKeyAnswersTheSameReplayAndStartsNoOther() throws Exception {
        String dlq = deadLetters("retry");
        String key = "0b7c5a2e-9f1d-4c1e-8a57-" + PREFIX;

        HttpResponse<String> first = post(dlq, "{}", OPERATOR_AUTH, key);
        HttpResponse<String> retry = post(dlq, "{}", OPERATOR_AUTH, key);
        String id = started(first);
        awaitState(dlq, id, "DONE");
        HttpResponse<String> late = post(dlq, "{}", OPERATOR_AUTH, key);

        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
        assertThat(JSON.readTree(retry.body()).path("id").asText()).isEqualTo(id);
        assertThat(late.statusCode()).as(late.body()).isEqualTo(200);
        assertThat(JSON.readTree(late.body()).path("state").asText()).isEqualTo("DONE");
        assertThat(replayConnectorsOf(dlq)).containsExactly(id);
        assertThat(TopicReader.readCommitted(kafka, target("retry"), Duration.ofSeconds(30)))
                .as("each dead letter replayed once").hasSize(DEAD_LETTERS);
        HttpResponse<String> otherRequest = post(dlq, "{\"batchSize\":2}", OPERATOR_AUTH, key);
        assertThat(otherRequest.statusCode()).as(otherRequest.body()).isEqualTo(422);
    }

    @Test
    void cancellingNeedsTheRightToDeleteTheConnectorAlsoOnceItIsGone() throws Exception {
        String dlq = deadLetters("cancel");
        String id = started(post(dlq, "{}", OPERATOR_AUTH, null));
        awaitState(dlq, id, "DONE");

        HttpResponse<String> whileThere = send("DELETE", replays(dlq) + "/" + id, null, VIEWER_AUTH, null);
        assertThat(whileThere.statusCode()).as(whileThere.body()).isEqualTo(403);
        assertThat(send("GET", "/connectors/" + id, null, VIEWER_AUTH, null).statusCode()).isEqualTo(200);

        assertThat(send("DELETE", "/connectors/" + id, null, OPERATOR_AUTH, null).statusCode()).isEqualTo(204);
        HttpResponse<String> gone = send("DELETE", replays(dlq) + "/" + id, null, VIEWER_AUTH, null);
        assertThat(gone.statusCode()).as(gone.body()).isEqualTo(403);

        HttpResponse<String> byOperator = send("DELETE", replays(dlq) + "/" + id, null, OPERATOR_AUTH, null);
        assertThat(byOperator.statusCode()).as(byOperator.body()).isEqualTo(200);
        assertThat(JSON.readTree(byOperator.body()).path("state").asText()).isEqualTo("DONE");
    }

    @Test
    void aReplayWhoseDeadLetterTopicWasDeletedIsCancelledWithoutReadingIt() throws Exception {
        String dlq = deadLetters("gone", java.util.Collections.nCopies(200, target("gone")));
        String id = started(post(dlq, "{\"batchSize\":1}", OPERATOR_AUTH, null));
        awaitReplayed(dlq, id);
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(List.of(dlq)).all().get();
        }

        HttpResponse<String> cancelled = send("DELETE", replays(dlq) + "/" + id, null, OPERATOR_AUTH, null);

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        JsonNode answer = JSON.readTree(cancelled.body());
        assertThat(answer.path("state").asText()).isIn("CANCELLED", "DONE");
        assertThat(replayConnectorsOf(dlq)).isEmpty();
        JsonNode last = JSON.readTree(send("GET", replays(dlq) + "/" + id, null, OPERATOR_AUTH, null).body());
        assertThat(last.path("state").asText()).isEqualTo(answer.path("state").asText());
        assertThat(TopicReader.readCommitted(kafka, target("gone"), Duration.ofSeconds(30)))
                .as("what the replay wrote, against its counts").hasSize(last.path("counts").path("replayed").asInt());
    }

    @Test
    void aReplayStillRunningOnADeletedDeadLetterTopicDoesNotBlockReplaysOfTheTopicCreatedAgainUnderItsName()
            throws Exception {
        String dlq = deadLetters("reborn", java.util.Collections.nCopies(200, target("reborn")));
        String old = started(post(dlq, "{\"batchSize\":1}", OPERATOR_AUTH, null));
        awaitReplayed(dlq, old);
        HttpResponse<String> paused = send("PUT", "/connectors/" + old + "/pause", null, OPERATOR_AUTH, null);
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(202);
        awaitConnectorState(old, "PAUSED");
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(List.of(dlq)).all().get();
            Await.until(() -> dlq + " created again after its deletion", LANDED, () -> {
                try {
                    admin.createTopics(List.of(new NewTopic(dlq, 1, (short) 1))).all().get();
                    return true;
                } catch (ExecutionException e) {
                    return false; // TopicExistsException while the deletion is still under way
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
        }
        moreDeadLetters("reborn", java.util.Collections.nCopies(DEAD_LETTERS, target("reborn")), 1_000);
        assertThat(awaitState(dlq, old, "RUNNING").path("counts").path("replayed").asLong())
                .as("the old replay, still RUNNING on the deleted topic").isPositive();

        HttpResponse<String> again = post(dlq, "{}", OPERATOR_AUTH, null);

        String id = started(again);
        assertThat(id).isNotEqualTo(old);
        assertThat(awaitState(dlq, id, "DONE").path("counts").path("replayed").asLong()).isEqualTo(DEAD_LETTERS);
        assertThat(send("DELETE", replays(dlq) + "/" + old, null, OPERATOR_AUTH, null).statusCode()).isEqualTo(200);
    }

    @Test
    void anEmptyUntilIsRefusedWith400NamingItAndStartsNothing() throws Exception {
        String dlq = deadLetters("nountil");

        HttpResponse<String> answer = post(dlq, "{\"until\":{}}", OPERATOR_AUTH, null);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        assertThat(answer.body()).contains("until");
        assertThat(replayConnectorsOf(dlq)).isEmpty();
        assertThat(TopicReader.readCommitted(kafka, target("nountil"), Duration.ofSeconds(30))).isEmpty();
    }

    @Test
    void speedLimitsOfARequestReachItsConnectorAndANegativeOneIsA400NamingTheFieldThatStartsNothing()
            throws Exception {
        String dlq = deadLetters("limited");

        for (String field : new String[] {"maxRecordsPerSecond", "maxBytesPerSecond"}) {
            HttpResponse<String> refused = post(dlq, "{\"" + field + "\":-1}", OPERATOR_AUTH, null);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            assertThat(refused.body()).contains(field + " must be a whole number, 0 (no limit) or more");
        }
        assertThat(replayConnectorsOf(dlq)).as("no connector created").isEmpty();

        String id = started(post(dlq, "{\"maxRecordsPerSecond\":2,\"maxBytesPerSecond\":1000000}", OPERATOR_AUTH,
                null));
        HttpResponse<String> config = Await.value("the config of replay connector " + id, LANDED, () -> {
            HttpResponse<String> answer = send("GET", "/connectors/" + id + "/config", null, OPERATOR_AUTH, null);
            return answer.statusCode() == 200 ? answer : null;
        });
        assertThat(JSON.readTree(config.body()).path(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG).asText())
                .isEqualTo("2");
        assertThat(JSON.readTree(config.body()).path(ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG).asText())
                .isEqualTo("1000000");
        assertThat(awaitState(dlq, id, "DONE").path("counts").path("replayed").asLong()).isEqualTo(DEAD_LETTERS);
        assertThat(TopicReader.readCommitted(kafka, target("limited"), Duration.ofSeconds(30)))
                .hasSize(DEAD_LETTERS);
    }

    /**
     * The race CI met: DELETE answers while the worker is still starting (or stopping) the replay's task, whose
     * producer may then fence the cancelling one. Each round cancels a replay of its own topic at another moment of
     * its life (right after the start, as soon as its task is assigned, once it has written); every cancellation must
     * be committed, and what the replay wrote must be exactly what its final progress counts.
     */
    @Test
    void aReplayCancelledAtAnyMomentOfItsStartIsCancelledAndWritesNothingAfterwards() throws Exception {
        for (int round = 0; round < CANCEL_ROUNDS; round++) {
            String name = "stop" + (char) ('a' + round); // the monitored topics: PREFIX-[a-z]+-dlq
            String dlq = deadLetters(name, java.util.Collections.nCopies(40, target(name)));
            String id = started(post(dlq, "{\"batchSize\":1}", OPERATOR_AUTH, null));
            if (round % 3 == 1) {
                awaitTaskAssigned(id);
            } else if (round % 3 == 2) {
                awaitReplayed(dlq, id);
            }

            HttpResponse<String> cancelled = send("DELETE", replays(dlq) + "/" + id, null, OPERATOR_AUTH, null);

            assertThat(cancelled.statusCode()).as("round " + round + ": " + cancelled.body() + "; the worker log on "
                    + id + ":\n" + workerLogOn(id)).isEqualTo(200);
            JsonNode answer = JSON.readTree(cancelled.body());
            assertThat(answer.path("state").asText()).isIn("CANCELLED", "DONE");
            assertThat(replayConnectorsOf(dlq)).isEmpty();
            JsonNode last = JSON.readTree(send("GET", replays(dlq) + "/" + id, null, OPERATOR_AUTH, null).body());
            assertThat(last.path("state").asText()).as("the progress after the answer").isEqualTo(
                    answer.path("state").asText());
            assertThat(TopicReader.readCommitted(kafka, target(name), Duration.ofSeconds(30)))
                    .as("round " + round + ": what the replay wrote, against its counts")
                    .hasSize(last.path("counts").path("replayed").asInt());
        }
    }

    @Test
    void cancellingAReplayConnectorWithAProgressTopicOfItsOwnWritesNothingThere() throws Exception {
        String dlq = deadLetters("named");
        String elsewhere = ReplayConfig.PROGRESS_TOPIC_DEFAULT + "-" + PREFIX;
        String id = "replay-named-" + PREFIX;
        Map<String, String> config = new LinkedHashMap<>(Map.of("connector.class",
                "dev.quarantine.connect.replay.DeadLetterReplayConnector", "tasks.max", "1",
                "bootstrap.servers", kafka.bootstrapServers(), ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.REPLAY_ID_CONFIG, id, ReplayConfig.PROGRESS_TOPIC_CONFIG, elsewhere,
                ReplayConfig.DESTINATION_CONFIG, target("named")));
        HttpResponse<String> created = send("POST", "/connectors", JSON.writeValueAsString(Map.of("name", id,
                "config", config, "initial_state", "STOPPED")), OPERATOR_AUTH, null);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        HttpResponse<String> cancelled = send("DELETE", replays(dlq) + "/" + id, null, OPERATOR_AUTH, null);

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(404);
        assertThat(send("GET", "/connectors/" + id, null, OPERATOR_AUTH, null).statusCode()).isEqualTo(200);
        try (Admin admin = kafka.admin()) {
            assertThat(admin.listTopics().names().get()).doesNotContain(elsewhere);
        }
    }

    @Test
    void aReplayWritesNoDestinationItsHeadersForgeForTheWorkersOrTheMonitorsOwnTopicsAndCountsThemRefused()
            throws Exception {
        List<String> forbidden = forbidden();
        List<String> destinations = new java.util.ArrayList<>(forbidden);
        destinations.addAll(List.of(target("forged"), target("forged"), target("forged")));
        String dlq = deadLetters("forged", destinations);

        String id = started(post(dlq, "{}", OPERATOR_AUTH, null));

        JsonNode done = awaitState(dlq, id, "DONE");
        assertThat(done.path("counts").path("refused").asLong()).isEqualTo(forbidden.size());
        assertThat(done.path("counts").path("replayed").asLong()).isEqualTo(3);
        assertThat(TopicReader.readCommitted(kafka, target("forged"), Duration.ofSeconds(30))).hasSize(3);
        for (String topic : forbidden) {
            if (!topic.startsWith("__")) {
                assertThat(forgedIn(topic)).as("dead letters written to " + topic).isEmpty();
            }
        }
        assertThat(send("GET", "/connectors", null, OPERATOR_AUTH, null).body()).doesNotContain("evil");
    }

    @Test
    void aDryRunAnswersPerDestinationAndWritesNothing() throws Exception {
        String dlq = deadLetters("dry", java.util.Arrays.asList(target("dry"), target("dry"), target("dry"),
                PREFIX + "-configs", null));

        HttpResponse<String> dryRun = post(dlq, "{\"dryRun\":true}", OPERATOR_AUTH, null);

        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
        JsonNode answer = JSON.readTree(dryRun.body());
        assertThat(answer.path("byDestination").toString()).isEqualTo("{\"" + target("dry") + "\":3}");
        assertThat(answer.path("counts").path("refused").asLong()).isEqualTo(1);
        assertThat(answer.path("counts").path("skippedUnroutable").asLong()).isEqualTo(1);
        assertThat(answer.path("complete").asBoolean()).isTrue();
        assertThat(endOffset(target("dry"))).isZero();
        assertThat(forgedIn(PREFIX + "-configs")).isEmpty();
        assertThat(replayConnectorsOf(dlq)).isEmpty();
    }

    @Test
    void aReplayStartedWithTheDryRunsUntilWritesNoDeadLetterThatArrivedAfterTheDryRun() throws Exception {
        String dlq = deadLetters("until");
        HttpResponse<String> dryRun = post(dlq, "{\"dryRun\":true}", OPERATOR_AUTH, null);
        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
        JsonNode until = JSON.readTree(dryRun.body()).path("until");
        assertThat(until.toString()).isEqualTo("{\"0\":" + DEAD_LETTERS + "}");
        moreDeadLetters("until", java.util.Collections.nCopies(3, target("until")), DEAD_LETTERS);

        String id = started(post(dlq, "{\"until\":" + until + "}", OPERATOR_AUTH, null));

        JsonNode done = awaitState(dlq, id, "DONE");
        assertThat(done.path("counts").path("replayed").asLong()).isEqualTo(DEAD_LETTERS);
        assertThat(done.path("offsetsInRange").asLong()).isEqualTo(DEAD_LETTERS);
        assertThat(TopicReader.readCommitted(kafka, target("until"), Duration.ofSeconds(30)))
                .as("exactly the dead letters the dry run read").hasSize(DEAD_LETTERS);
    }

    @Test
    void aDryRunNeedsTheRightToStartAReplayAndIsAnsweredAsTheStartWouldBe() throws Exception {
        String dlq = deadLetters("rights");

        HttpResponse<String> start = post(dlq, "{}", VIEWER_AUTH, null);
        HttpResponse<String> dryRun = post(dlq, "{\"dryRun\":true}", VIEWER_AUTH, null);

        assertThat(start.statusCode()).as(start.body()).isEqualTo(403);
        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(403);
        assertThat(dryRun.body()).doesNotContain("byDestination");
        assertThat(post(dlq, "{\"dryRun\":true}", OPERATOR_AUTH, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/connectors", null, OPERATOR_AUTH, null).body()).as("the probe created nothing")
                .doesNotContain("dry-run");
    }

    @Test
    void dryRunsBeyondTheWorkersLimitAreRefusedWith429NamingTheLimit() throws Exception {
        String dlq = deadLetters("busy", java.util.Collections.nCopies(200, target("busy")));
        // a burst of simultaneous dry runs against a limit of 1; bursts repeat (at most 5) until two of them
        // overlapped, which the scheduler does not promise for any single burst
        HttpResponse<String> refused = null;
        for (int burst = 0; burst < 5 && refused == null; burst++) {
            List<HttpResponse<String>> done = burstOfDryRuns(dlq, 6);

            assertThat(done).extracting(HttpResponse::statusCode).containsOnly(200, 429).contains(200);
            refused = done.stream().filter(a -> a.statusCode() == 429).findFirst().orElse(null);
        }
        assertThat(refused).as("a dry run refused in one of 5 bursts of 6").isNotNull();
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(refused.body()).contains(MonitorConfig.REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG, "TOO_MANY_REQUESTS");
        assertThat(post(dlq, "{\"dryRun\":true}", OPERATOR_AUTH, null).statusCode()).as("once the others ended")
                .isEqualTo(200);
    }

    private List<HttpResponse<String>> burstOfDryRuns(String dlq, int parallel) throws Exception {
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(parallel);
        try {
            List<java.util.concurrent.Future<HttpResponse<String>>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < parallel; i++) {
                answers.add(callers.submit(() -> {
                    go.await();
                    return post(dlq, "{\"dryRun\":true}", OPERATOR_AUTH, null);
                }));
            }
            go.countDown();
            List<HttpResponse<String>> done = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<HttpResponse<String>> answer : answers) {
                done.add(answer.get(120, java.util.concurrent.TimeUnit.SECONDS));
            }
            return done;
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aRequestCannotSetTheDestinationsItMayWrite() {
        for (String field : List.of("destinationsAllowed", "destinationsDenied", "replay.destinations.allowed")) {
            HttpResponse<String> answer = post(PREFIX + "-password-dlq", "{\"" + field + "\":\".*\"}",
                    OPERATOR_AUTH, null);
            assertThat(answer.statusCode()).as(answer.body()).isIn(400, 404);
            if (answer.statusCode() == 400) {
                assertThat(answer.body()).contains(field, MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG);
            }
        }
    }

    @Test
    void theDashboardShowsTheDryRunBeforeTheOperatorConfirmsTheReplay() throws Exception {
        String dlq = deadLetters("ui", List.of(target("ui"), target("ui"), PREFIX + "-configs", target("ui")));
        Await.until(() -> "the monitor counted the 4 dead letters of " + dlq, LANDED, () -> {
            HttpResponse<String> figures = send("GET", "/dead-letters/" + dlq, null, OPERATOR_AUTH, null);
            return figures.statusCode() == 200 && figures.body().contains("\"total\":4");
        });
        try (DashboardPage page = DashboardPage.open(worker.restUrl(), OPERATOR, "s3cret")) {
            page.openTopicWithKeyboard(dlq);

            Map<String, String> dryRun = page.previewReplay();

            assertThat(dryRun).containsExactly(Map.entry(target("ui"), "3"));
            assertThat(page.text("d-refused")).isEqualTo("1");
            assertThat(page.text("d-unroutable")).isEqualTo("0");
            assertThat(replayConnectorsOf(dlq)).as("no replay before the confirmation").isEmpty();
            assertThat(endOffset(target("ui"))).isZero();
            page.screenshot("replay-dry-run");
            moreDeadLetters("ui", List.of(target("ui")), 4); // arrives after the preview: not replayed

            page.confirmReplay();

            page.await(() -> "DONE".equals(page.text("replay-state")),
                    () -> "the replay DONE (state '" + page.text("replay-state") + "')");
            assertThat(page.text("r-replayed")).as("what the preview showed").isEqualTo("3");
            assertThat(TopicReader.readCommitted(kafka, target("ui"), Duration.ofSeconds(30))).hasSize(3);
            assertThat(page.text("r-refused")).isEqualTo("1");
            assertThat(replayConnectorsOf(dlq)).hasSize(1);
            assertThat(page.consoleErrors()).isEmpty();
        }
    }

    /** The keys of forged dead letters that {@code topic} holds. */
    private static List<String> forgedIn(String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(60)).stream()
                .map(r -> r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8))
                .filter(k -> k.startsWith(FORGED)).toList();
    }

    private static long endOffset(String topic) throws Exception {
        try (Admin admin = kafka.admin()) {
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest =
                    new HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().forEach(p ->
                    latest.put(new org.apache.kafka.common.TopicPartition(topic, p.partition()),
                            org.apache.kafka.clients.admin.OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get().values().stream()
                    .mapToLong(org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
        }
    }

    private static String deadLetters(String name) throws Exception {
        return deadLetters(name, java.util.Collections.nCopies(DEAD_LETTERS, target(name)));
    }

    /**
     * A dead-letter topic of this test holding one dead letter per entry of {@code destinations}: Kafka Connect's
     * headers naming that topic as the input (partition 0), or none at all for a {@code null} entry.
     */
    private static String deadLetters(String name, List<String> destinations) throws Exception {
        String dlq = PREFIX + "-" + name + "-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(target(name), 1, Map.of());
        moreDeadLetters(name, destinations, 0);
        Await.until(() -> "the monitor found " + dlq, LANDED,
                () -> send("GET", "/dead-letters/" + dlq, null, OPERATOR_AUTH, null).statusCode() == 200);
        return dlq;
    }

    /** Adds dead letters to the topic of {@link #deadLetters(String, List)}, numbered from {@code first}. */
    private static void moreDeadLetters(String name, List<String> destinations, int first) throws Exception {
        String dlq = PREFIX + "-" + name + "-dlq";
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int n = 0; n < destinations.size(); n++) {
                int i = first + n;
                RecordHeaders headers = new RecordHeaders();
                if (destinations.get(n) != null) {
                    headers.add(DeadLetterHeaders.CONNECT_TOPIC, bytes(destinations.get(n)));
                    headers.add(DeadLetterHeaders.CONNECT_PARTITION, bytes("0"));
                    headers.add(DeadLetterHeaders.CONNECT_OFFSET, bytes(String.valueOf(i)));
                    headers.add(DeadLetterHeaders.CONNECT_EXCEPTION,
                            bytes("org.apache.kafka.connect.errors.DataException"));
                }
                String key = target(name).equals(destinations.get(n)) ? "k" + i : FORGED + i;
                producer.send(new ProducerRecord<>(dlq, null, null, bytes(key), bytes("{}"), headers)).get();
            }
        }
    }

    /** Topics a dead letter's headers must never make a replay write, though the allow-list matches most. */
    private static List<String> forbidden() throws Exception {
        deadLetters("seed"); // the aggregation runs over a topic of this class, so its changelog topics exist
        String changelog = Await.value("a changelog topic of the monitor's aggregation", LANDED, () -> {
            try (Admin admin = kafka.admin()) {
                return admin.listTopics().names().get().stream()
                        .filter(t -> t.startsWith(PREFIX + "-connect" + WorkerSettings.APPLICATION_ID_SUFFIX)
                                && t.endsWith("-changelog")).findFirst().orElse(null);
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
        });
        kafka.createTopic(PREFIX + "-other-dlq.parking", 1, Map.of());
        return List.of(PREFIX + "-configs", PREFIX + "-offsets", PREFIX + "-status", changelog,
                ReplayConfig.PROGRESS_TOPIC_DEFAULT, "__consumer_offsets", PREFIX + "-other-dlq.parking");
    }

    private static String target(String name) {
        return PREFIX + "-" + name + "-target";
    }

    /** A producer holding a transaction open on the replays' progress topic; closing it aborts it. */
    private static KafkaProducer<byte[], byte[]> progressTopicHolder() throws InterruptedException {
        try (Admin admin = kafka.admin()) {
            admin.createTopics(List.of(new NewTopic(ReplayConfig.PROGRESS_TOPIC_DEFAULT, 1, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))))
                    .all().get();
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(TopicExistsException.class);
        }
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, PREFIX + "-progress-holder");
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer());
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(ReplayConfig.PROGRESS_TOPIC_DEFAULT, bytes(PREFIX + "-holder"), null));
        producer.flush();
        return producer;
    }

    private static List<String> replayConnectorsOf(String dlq) throws IOException {
        JsonNode connectors = JSON.readTree(send("GET", "/connectors?expand=info", null, OPERATOR_AUTH, null).body());
        List<String> names = new java.util.ArrayList<>();
        connectors.fields().forEachRemaining(c -> {
            if (dlq.equals(c.getValue().path("info").path("config").path(ReplayConfig.DLQ_TOPIC_CONFIG).asText())) {
                names.add(c.getKey());
            }
        });
        return names;
    }

    private static String started(HttpResponse<String> answer) throws IOException {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        return JSON.readTree(answer.body()).path("id").asText();
    }

    private static JsonNode awaitState(String dlq, String id, String state) {
        JsonNode[] last = new JsonNode[1];
        Await.until(() -> "replay " + id + " " + state + ", last seen " + last[0], LANDED, () -> {
            HttpResponse<String> answer = send("GET", replays(dlq) + "/" + id, null, OPERATOR_AUTH, null);
            try {
                last[0] = answer.statusCode() == 200 ? JSON.readTree(answer.body()) : null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return last[0] != null && state.equals(last[0].path("state").asText());
        });
        return last[0];
    }

    /** Waits until the replay has written some of its dead letters (its progress counts one replayed). */
    private static void awaitReplayed(String dlq, String id) {
        Await.until(() -> "replay " + id + " writing", LANDED, () -> {
            HttpResponse<String> answer = send("GET", replays(dlq) + "/" + id, null, OPERATOR_AUTH, null);
            try {
                return answer.statusCode() == 200
                        && JSON.readTree(answer.body()).path("counts").path("replayed").asLong() > 0;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static void awaitConnectorState(String id, String state) {
        Await.until(() -> "connector " + id + " " + state, LANDED, () -> {
            HttpResponse<String> status = send("GET", "/connectors/" + id + "/status", null, OPERATOR_AUTH, null);
            try {
                return status.statusCode() == 200
                        && state.equals(JSON.readTree(status.body()).path("connector").path("state").asText());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Waits until the worker lists a task of the replay's connector (assigned, maybe not started yet). */
    private static void awaitTaskAssigned(String id) {
        Await.until(() -> "a task of " + id, LANDED, () -> {
            HttpResponse<String> status = send("GET", "/connectors/" + id + "/status", null, OPERATOR_AUTH, null);
            try {
                return status.statusCode() == 200 && !JSON.readTree(status.body()).path("tasks").isEmpty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The worker log's lines naming {@code id} and the exceptions after them, for a failure message. */
    private static String workerLogOn(String id) {
        try {
            List<String> lines = Files.readAllLines(worker.logFile(), StandardCharsets.UTF_8);
            StringBuilder on = new StringBuilder();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains(id)) {
                    for (int j = i; j < Math.min(lines.size(), i + 12); j++) {
                        on.append(lines.get(j)).append('\n');
                    }
                }
            }
            return on.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String replays(String dlq) {
        return "/dead-letters/" + dlq + "/replays";
    }

    private static HttpResponse<String> post(String dlq, String body, String auth, String idempotencyKey) {
        return send("POST", replays(dlq), body, auth, idempotencyKey);
    }

    private static HttpResponse<String> send(String method, String path, String body, String auth,
                                             String idempotencyKey) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Authorization", auth);
        if (idempotencyKey != null) {
            headers.put("Idempotency-Key", idempotencyKey);
        }
        return HttpRequests.send(worker.restUrl(), method, path, body, headers);
    }
}
