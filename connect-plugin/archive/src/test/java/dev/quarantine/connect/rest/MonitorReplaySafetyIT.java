package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.sandbox.Await;
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
class MonitorReplaySafetyIT {

    private static final Path PLUGIN_PATH = Path.of(System.getProperty("quarantine.plugin.path", "target/plugin"));
    private static final Path CLASSPATH = Path.of(System.getProperty("quarantine.worker.classpath",
            "target/connect-worker-classpath.txt"));
    private static final String OPERATOR = ConnectorWritesForOperators.OPERATOR;
    private static final String VIEWER = "viewer";
    private static final String OPERATOR_AUTH = basic(OPERATOR, "s3cret");
    private static final String VIEWER_AUTH = basic(VIEWER, "look-only");
    private static final String TRUSTSTORE_PASSWORD = "truststore-secret-0123";
    private static final String TRUSTSTORE_CERTIFICATES = "-----BEGIN CERTIFICATE----- not-a-real-one";
    private static final Duration LANDED = Duration.ofSeconds(120);
    private static final int DEAD_LETTERS = 5;
    private static final String PREFIX = "safe-" + Long.toHexString(System.nanoTime()).substring(6);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

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
                "ssl.truststore.password", TRUSTSTORE_PASSWORD,
                "ssl.truststore.certificates", TRUSTSTORE_CERTIFICATES));
        settings.put("quarantine.monitor.replay.destinations.allowed", PREFIX + "-[a-z]+-target");
        worker = LocalConnect.create(kafka, PLUGIN_PATH, BasicAuthWorkers.classpath(LocalConnect.readClasspath(
                CLASSPATH)), settings).withJvmOptions("-Djava.security.auth.login.config=" + jaas())
                .withBasicAuth(OPERATOR, "s3cret").start();
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

        HttpResponse<String> config = send("GET", "/connectors/" + id + "/config", null, OPERATOR_AUTH, null);
        assertThat(config.statusCode()).as(config.body()).isEqualTo(200);
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
    void cancellingAReplayConnectorWithAProgressTopicOfItsOwnWritesNothingThere() throws Exception {
        String dlq = deadLetters("named");
        String elsewhere = PREFIX + "-elsewhere";
        String id = "replay-named-" + PREFIX;
        Map<String, String> config = new LinkedHashMap<>(Map.of("connector.class",
                "dev.quarantine.connect.replay.DeadLetterReplayConnector", "tasks.max", "1",
                "bootstrap.servers", kafka.bootstrapServers(), ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.REPLAY_ID_CONFIG, id, ReplayConfig.PROGRESS_TOPIC_CONFIG, elsewhere));
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

    private static String deadLetters(String name) throws Exception {
        String dlq = PREFIX + "-" + name + "-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(target(name), 1, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < DEAD_LETTERS; i++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add(DeadLetterHeaders.CONNECT_TOPIC, bytes(target(name)));
                headers.add(DeadLetterHeaders.CONNECT_PARTITION, bytes("0"));
                headers.add(DeadLetterHeaders.CONNECT_OFFSET, bytes(String.valueOf(i)));
                headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, bytes("org.apache.kafka.connect.errors.DataException"));
                producer.send(new ProducerRecord<>(dlq, null, null, bytes("k" + i), bytes("v" + i), headers)).get();
            }
        }
        Await.until(() -> "the monitor found " + dlq, LANDED,
                () -> send("GET", "/dead-letters/" + dlq, null, OPERATOR_AUTH, null).statusCode() == 200);
        return dlq;
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

    private static String replays(String dlq) {
        return "/dead-letters/" + dlq + "/replays";
    }

    private static HttpResponse<String> post(String dlq, String body, String auth, String idempotencyKey) {
        return send("POST", replays(dlq), body, auth, idempotencyKey);
    }

    private static HttpResponse<String> send(String method, String path, String body, String auth,
                                             String idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(worker.restUrl() + path))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        request.header("Authorization", auth);
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(method + " " + path + " interrupted", e);
        }
    }

    private static Path jaas() {
        try {
            Path dir = Files.createTempDirectory("monitor-replay-safety");
            Path users = Files.writeString(dir.resolve("users.properties"),
                    OPERATOR + "=s3cret\n" + VIEWER + "=look-only\n");
            return Files.writeString(dir.resolve("connect.jaas"), "KafkaConnect {\n"
                    + "  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule required\n"
                    + "  file=\"" + users + "\";\n};\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
