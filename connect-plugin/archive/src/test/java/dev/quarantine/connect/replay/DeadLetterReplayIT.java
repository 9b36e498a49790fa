package dev.quarantine.connect.replay;

import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.quarantine.connect.ConnectsOwnDeadLetterQueue;
import dev.quarantine.connect.HttpRequests;
import dev.quarantine.connect.rest.BasicAuthWorkers;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayProgressReader;
import dev.quarantine.replay.ReplayState;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * Replays through the monitor's endpoints on a real worker JVM loading the plugin archive, behind Kafka's basic-auth
 * REST extension: our sink dead-letters the records its target's lowered {@code max.message.bytes} rejects; the
 * limit is raised; a replay started with {@code POST /dead-letters/{topic}/replays} puts them back exactly once, with
 * their own time (every input is two days old), one replay survives a kill -9 of its worker, and one is cancelled.
 */
@ExtendWith(LocalKafkaExtension.class)
class DeadLetterReplayIT {

    private static final Duration LANDED = Duration.ofSeconds(180);
    private static final String PREFIX = "rep-" + Long.toHexString(System.nanoTime()).substring(6);
    private static final String SOURCE = PREFIX + "-in";
    private static final String TARGET = "copy." + SOURCE;
    private static final String DLQ = PREFIX + "-dlq";
    private static final String JSON_INPUT = PREFIX + "-json";
    private static final String CONNECT_DLQ = PREFIX + "-connect-dlq";
    private static final int JSON_RECORDS = 50;
    private static final int RECORDS = 2_000;
    private static final int SMALL_LIMIT = 2_048;
    /** Every input record is stamped two days old plus its id: dead letters and replays must keep that time. */
    private static final long TWO_DAYS_AGO = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
    private static final String AUTH = ConnectRest.basicAuth(BasicAuthWorkers.USER, BasicAuthWorkers.PASSWORD);
    /**
     * The tests replay the same dead letters, in any order: each asks to replay those an earlier test's finished
     * replay already replayed (skipped and counted otherwise).
     */
    private static final String AGAIN = "{\"replayAgain\":true}";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static LocalKafka kafka;
    private static LocalConnect worker;

    @BeforeAll
    static void deadLetterEveryFifthRecordThenRaiseTheLimit(LocalKafka localKafka) throws Exception {
        kafka = localKafka;
        kafka.createTopic(SOURCE, 2, Map.of());
        kafka.createTopic(TARGET, 2, Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, String.valueOf(SMALL_LIMIT)));
        kafka.createTopic(DLQ, 1, Map.of());
        worker = worker().start();
        produce();
        worker.createConnector(PREFIX + "-copy", Map.of(
                "connector.class", TransactionalKafkaSinkConnector.class.getName(),
                "tasks.max", "2",
                "topics", SOURCE,
                "consumer.override.isolation.level", "read_committed",
                "target.bootstrap.servers", kafka.bootstrapServers(),
                "target.topic.format", "copy.${topic}",
                "dlq.topic.name", DLQ));
        Await.until(() -> poison().size() + " dead letters in " + DLQ, LANDED, () -> committedCount(DLQ)
                == poison().size());
        worker.pauseConnector(PREFIX + "-copy");
        assertThat(keys(TopicReader.readCommitted(kafka, TARGET, Duration.ofSeconds(10))))
                .hasSize(RECORDS - poison().size());
        connectsOwnDeadLetterQueue();
        for (String dlq : List.of(DLQ, CONNECT_DLQ)) {
            Await.until(() -> "the monitor found " + dlq + " in the connector configs", LANDED, () -> send("GET", "/dead-letters/" + dlq, null, AUTH).statusCode() == 200);
        }
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, TARGET),
                List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1048588"),
                        AlterConfigOp.OpType.SET)))).all().get();
    }

    @AfterAll
    static void stopWorker() {
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void replayPutsEveryDeadLetterBackIntoItsOriginalTopicOnceWithItsOwnHeadersOnly() throws Exception {
        HttpResponse<String> started = post("/dead-letters/" + DLQ + "/replays", AGAIN, AUTH);
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String location = started.headers().firstValue("Location").orElseThrow();
        String id = JSON.readTree(started.body()).path("id").asText();
        assertThat(location).endsWith("/dead-letters/" + DLQ + "/replays/" + id);

        JsonNode done = awaitState(id, "DONE");

        assertThat(done.path("counts").path("replayed").asLong()).isEqualTo(poison().size());
        assertThat(done.path("offsetsRead").asLong()).isEqualTo(done.path("offsetsInRange").asLong());
        List<ConsumerRecord<byte[], byte[]>> target = TopicReader.readCommitted(kafka, TARGET, Duration.ofSeconds(30));
        assertThat(keys(target)).as("every record of the source exactly once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, RECORDS).mapToObj(i -> "key-" + i).toList());
        Map<String, Integer> sourcePartitions = TopicReader.readCommitted(kafka, SOURCE, Duration.ofSeconds(30))
                .stream().collect(Collectors.toMap(r -> text(r.key()), ConsumerRecord::partition));
        for (ConsumerRecord<byte[], byte[]> record : target) {
            if (poison().contains(text(record.key()))) {
                assertThat(headerNames(record)).as("replayed " + text(record.key()))
                        .contains("id", "__quarantine.replay.count")
                        .noneMatch(h -> h.startsWith("__connect.errors.") || h.equals("__quarantine.error.category"));
                assertThat(record.value()).hasSize(4_000);
                assertKeptItsTimeAndPartition(record, sourcePartitions.get(text(record.key())));
            }
        }
    }

    @Test
    void replayOfKafkaConnectsOwnDeadLetterQueueGoesBackToTheSinksInputTopic() throws Exception {
        String id = start(CONNECT_DLQ, "{}");

        JsonNode done = awaitState(CONNECT_DLQ, id, "DONE");

        assertThat(done.path("counts").path("replayed").asLong()).isEqualTo(badJson().size());
        List<ConsumerRecord<byte[], byte[]>> input = TopicReader.readCommitted(kafka, JSON_INPUT, Duration.ofSeconds(30));
        List<ConsumerRecord<byte[], byte[]>> replayed = input.subList(JSON_RECORDS, input.size());
        assertThat(keys(replayed)).as("the bad records, each once, after the original %d", JSON_RECORDS)
                .containsExactlyInAnyOrderElementsOf(badJson());
        assertThat(replayed).allSatisfy(record -> {
            assertThat(headerNames(record)).contains("id").noneMatch(h -> h.startsWith("__connect.errors."));
            assertKeptItsTimeAndPartition(record, 0);
        });
    }

    /** The replayed record has its original's timestamp (two days old plus its id) and partition. */
    private static void assertKeptItsTimeAndPartition(ConsumerRecord<byte[], byte[]> record, int partition) {
        long id = Long.parseLong(text(record.headers().lastHeader("id").value()));
        assertThat(record.timestamp()).as("time of replayed %s", text(record.key())).isEqualTo(TWO_DAYS_AGO + id);
        assertThat(record.partition()).as("partition of replayed %s", text(record.key())).isEqualTo(partition);
    }

    @Test
    void aReplayWhoseWorkerIsKilledMidwayWritesEveryRecordExactlyOnce() throws Exception {
        String destination = PREFIX + "-after-kill";
        kafka.createTopic(destination, 1, Map.of());
        String id = start("{\"destination\":\"" + destination + "\",\"batchSize\":1,\"replayAgain\":true}");
        JsonNode[] before = new JsonNode[1];
        Await.until(() -> "replay " + id + " has begun: " + before[0], LANDED, () -> {
            HttpResponse<String> answer = get(id);
            before[0] = answer.statusCode() == 200 ? parse(answer.body()) : null;
            return before[0] != null && before[0].path("counts").path("replayed").asLong() >= 5;
        });

        worker.restart(); // kill -9, and start again: the replay connector resumes from its committed progress

        assertThat(before[0].path("state").asText()).as("killed mid-way (one record per transaction)")
                .isEqualTo("RUNNING");
        JsonNode done = awaitState(id, "DONE");
        assertThat(done.path("counts").path("replayed").asLong()).isEqualTo(poison().size());
        assertThat(keys(TopicReader.readCommitted(kafka, destination, Duration.ofSeconds(30))))
                .as("the replayed records, each once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(poison());
    }

    @Test
    void cancellingAReplayStopsItsWritesAndRemovesItsConnector() throws Exception {
        String destination = PREFIX + "-cancelled";
        kafka.createTopic(destination, 1, Map.of());
        String id = start("{\"destination\":\"" + destination + "\",\"batchSize\":1,\"replayAgain\":true}");
        Await.until(() -> "the replay has begun", LANDED, () -> !TopicReader.readCommitted(kafka, destination, Duration.ofSeconds(5))
                .isEmpty());

        HttpResponse<String> cancelled = send("DELETE", "/dead-letters/" + DLQ + "/replays/" + id, null, AUTH);

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        JsonNode answer = JSON.readTree(cancelled.body());
        assertThat(answer.path("state").asText()).isEqualTo("CANCELLED");
        long replayed = answer.path("counts").path("replayed").asLong();
        assertThat(replayed).isLessThan(poison().size());
        assertThat(send("GET", "/connectors/" + id, null, AUTH).statusCode()).isEqualTo(404);
        assertThat(TopicReader.readCommitted(kafka, destination, Duration.ofSeconds(30))).hasSize((int) replayed);
        assertThat(JSON.readTree(get(id).body()).path("state").asText()).isEqualTo("CANCELLED");
    }

    @Test
    void theReplayConnectorRefusesForgedDestinationsKeepsItsTaskRunningAndFinishes() throws Exception {
        String dlq = PREFIX + "-forged-dlq";
        String out = PREFIX + "-forged-out";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(out, 1, Map.of());
        List<ConsumerRecord<byte[], byte[]>> good = TopicReader.readCommitted(kafka, DLQ, Duration.ofSeconds(30))
                .subList(0, 10);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ConsumerRecord<byte[], byte[]> letter : good) {
                producer.send(deadLetter(dlq, letter.key(), letter.value(), letter.headers(), out, "0"));
            }
            ConsumerRecord<byte[], byte[]> model = good.get(0);
            producer.send(deadLetter(dlq, bytes("connector-evil0"), bytes("{\"connector.class\":\"x\"}"),
                    model.headers(), PREFIX + "-configs", "0"));
            producer.send(deadLetter(dlq, model.key(), model.value(), model.headers(), "__consumer_offsets", "0"));
            producer.send(deadLetter(dlq, model.key(), model.value(), model.headers(), out, "-1"));
        }
        String name = PREFIX + "-forged-replay";
        Map<String, String> config = new java.util.HashMap<>(Map.of("name", name,
                "connector.class", DeadLetterReplayConnector.class.getName(), "tasks.max", "1",
                "bootstrap.servers", kafka.bootstrapServers(), "dlq.topic.name", dlq));
        assertThat(LocalConnect.validationErrors(worker.validate(DeadLetterReplayConnector.class.getName(), config)))
                .as("no allow-list").containsOnlyKeys("replay.destinations.allowed");
        config.put("replay.destinations.allowed", out);

        worker.createConnector(name, config);

        ReplayProgress done = Await.value("replay " + name + " DONE", LANDED, () -> {
            try (ReplayProgressReader reader = new ReplayProgressReader(Map.of("bootstrap.servers",
                    kafka.bootstrapServers()), "quarantine-replay-progress", Duration.ofSeconds(30))) {
                return reader.latest(name).filter(ReplayProgress::finished).orElse(null);
            }
        });
        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().replayed()).isEqualTo(good.size());
        assertThat(done.counts().refused()).as("the worker's config topic and __consumer_offsets").isEqualTo(2);
        assertThat(done.counts().skippedUnroutable()).as("partition -1").isOne();
        assertThat(LocalConnect.isRunning(worker.status(name), 1)).as("%s", worker.status(name)).isTrue();
        assertThat(keys(TopicReader.readCommitted(kafka, out, Duration.ofSeconds(30))))
                .containsExactlyInAnyOrderElementsOf(keys(good));
        assertThat(keys(TopicReader.readCommitted(kafka, PREFIX + "-configs", Duration.ofSeconds(30))))
                .doesNotContain("connector-evil0");
        assertThat(worker.get("/connectors").toString()).doesNotContain("evil0");
        worker.deleteConnector(name);
    }

    /** A dead letter with {@code headers} but the target topic and partition replaced. */
    private static ProducerRecord<byte[], byte[]> deadLetter(String dlq, byte[] key, byte[] value,
                                                            Iterable<Header> headers, String topic, String partition) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(dlq, null, key, value);
        for (Header header : headers) {
            if (!header.key().equals(DeadLetterHeaders.TARGET_TOPIC)
                    && !header.key().equals(DeadLetterHeaders.TARGET_PARTITION)) {
                record.headers().add(header);
            }
        }
        record.headers().add(DeadLetterHeaders.TARGET_TOPIC, bytes(topic));
        record.headers().add(DeadLetterHeaders.TARGET_PARTITION, bytes(partition));
        return record;
    }

    @Test
    void aReplayRequestNeedsTheWorkersCredentialsAndNamesABadField() {
        assertThat(post("/dead-letters/" + DLQ + "/replays", "{}", null).statusCode()).isEqualTo(401);
        HttpResponse<String> bad = post("/dead-letters/" + DLQ + "/replays", "{\"errorClass\":\"x\"}", AUTH);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("unknown field 'errorClass'", "errorClasses");
        HttpResponse<String> badTime = post("/dead-letters/" + DLQ + "/replays", "{\"from\":\"yesterday\"}", AUTH);
        assertThat(badTime.statusCode()).isEqualTo(400);
        assertThat(badTime.body()).contains("replay.filter.time.from");
        assertThat(get("no-such-replay").statusCode()).isEqualTo(404);
    }

    private static String start(String body) throws Exception {
        return start(DLQ, body);
    }

    private static String start(String dlq, String body) throws Exception {
        HttpResponse<String> started = post("/dead-letters/" + dlq + "/replays", body, AUTH);
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        return JSON.readTree(started.body()).path("id").asText();
    }

    private static JsonNode awaitState(String id, String state) throws Exception {
        return awaitState(DLQ, id, state);
    }

    private static JsonNode awaitState(String dlq, String id, String state) throws Exception {
        JsonNode[] last = new JsonNode[1];
        Await.until(() -> "replay " + id + " " + state + ", last seen " + last[0], LANDED, () -> {
            HttpResponse<String> answer = send("GET", "/dead-letters/" + dlq + "/replays/" + id, null, AUTH);
            if (answer.statusCode() != 200) {
                return false;
            }
            last[0] = parse(answer.body());
            return state.equals(last[0].path("state").asText());
        });
        return last[0];
    }

    private static HttpResponse<String> get(String id) {
        return send("GET", "/dead-letters/" + DLQ + "/replays/" + id, null, AUTH);
    }

    private static HttpResponse<String> post(String path, String body, String auth) {
        return send("POST", path, body, auth);
    }

    private static HttpResponse<String> send(String method, String path, String body, String auth) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        if (auth != null) {
            headers.put("Authorization", auth);
        }
        return HttpRequests.send(worker.restUrl(), method, path, body, headers);
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }

    /** Every fifth record is 4,000 bytes: over the target's lowered limit. */
    private static Set<String> poison() {
        return IntStream.range(0, RECORDS).filter(i -> i % 5 == 0).mapToObj(i -> "key-" + i)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Kafka Connect's own dead-letter queue: a sink whose JsonConverter cannot read every fifth record, with
     * {@code errors.tolerance=all}; paused once they are all there, so the replayed records stay in its input.
     */
    private static void connectsOwnDeadLetterQueue() {
        kafka.createTopic(JSON_INPUT, 1, Map.of());
        kafka.createTopic(CONNECT_DLQ, 1, Map.of());
        kafka.createTopic(PREFIX + "-json-quiet-dlq", 1, Map.of());
        kafka.createTopic("copy." + JSON_INPUT, 1, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < JSON_RECORDS; i++) {
                String value = badJson().contains("json-" + i) ? "{not json" : "{\"n\":" + i + "}";
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(JSON_INPUT, null, TWO_DAYS_AGO + i,
                        ("json-" + i).getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
                record.headers().add("id", String.valueOf(i).getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
        }
        String connector = PREFIX + "-json-copy";
        worker.createConnector(connector, ConnectsOwnDeadLetterQueue.jsonCopy(kafka.bootstrapServers(), JSON_INPUT,
                PREFIX + "-json-quiet-dlq", CONNECT_DLQ));
        Await.until(() -> badJson().size() + " dead letters in " + CONNECT_DLQ, LANDED, () -> committedCount(CONNECT_DLQ)
                == badJson().size());
        worker.pauseConnector(connector);
    }

    /**
     * The committed records of {@code topic}, or -1 while a transaction of the sink still writing to it keeps a
     * read_committed reader from its end for 10 s (a loaded machine): the caller's deadline decides.
     */
    private static int committedCount(String topic) {
        try {
            return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(10)).size();
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    private static Set<String> badJson() {
        return IntStream.range(0, JSON_RECORDS).filter(i -> i % 5 == 2).mapToObj(i -> "json-" + i)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static void produce() {
        Properties props = kafka.clientProps();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] value = new byte[i % 5 == 0 ? 4_000 : 100];
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(SOURCE, null, TWO_DAYS_AGO + i,
                        ("key-" + i).getBytes(StandardCharsets.UTF_8), value);
                record.headers().add("id", String.valueOf(i).getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
        }
    }

    private static List<String> keys(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> text(r.key())).toList();
    }

    private static List<String> headerNames(ConsumerRecord<byte[], byte[]> record) {
        List<String> names = new ArrayList<>();
        for (Header header : record.headers()) {
            names.add(header.key());
        }
        return names;
    }

    private static LocalConnect worker() {
        return BasicAuthWorkers.monitoring(kafka, PREFIX, Map.of(
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "1000",
                // the replays to 'original' go back to the sink's target and Connect's DLQ's input topic
                MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG, "copy\\." + SOURCE + "|" + JSON_INPUT));
    }
}
