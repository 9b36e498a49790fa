package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.connect.rest.peers.PeerAuth;
import dev.quarantine.connect.rest.peers.Peers;

/**
 * Two real workers running the monitor without {@code quarantine.monitor.peer.secret}: each shows only the share it
 * holds itself, says the answer is incomplete and which partitions are missing, and answers no other worker.
 */
@ExtendWith(LocalKafkaExtension.class)
@Tag("browser") // some tests drive the dashboard in headless Chromium: the browser tier, workers started once
class DeadLetterMonitorWithoutSecretIT {

    private static final String PREFIX = "nosecret-" + Long.toHexString(System.nanoTime()).substring(6);
    private static final String DLQ = PREFIX + "-dlq";
    private static final String SCRIPTED_DLQ = PREFIX + "-scripted-dlq";
    private static final int PARTITIONS = 3;
    private static final int PER_PARTITION = 4;

    private static final List<LocalConnect> workers = new ArrayList<>();

    @BeforeAll
    static void startTwoWorkersWithoutSecret(LocalKafka kafka) throws Exception {
        kafka.createTopic(DLQ, PARTITIONS, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < PARTITIONS * PER_PARTITION; i++) {
                producer.send(new ProducerRecord<>(DLQ, i % PARTITIONS, null, "v".getBytes(StandardCharsets.UTF_8)))
                        .get();
            }
        }
        kafka.createTopic(SCRIPTED_DLQ, 1, Map.of());
        DeadLetterTestData.produceScripted(kafka, SCRIPTED_DLQ);
        List<Path> classpath = BuiltPlugin.workerClasspath();
        for (int i = 0; i < 2; i++) {
            workers.add(LocalConnect.create(kafka, BuiltPlugin.PLUGIN_PATH, classpath, Map.of(
                    "group.id", PREFIX + "-connect",
                    "config.storage.topic", PREFIX + "-configs",
                    "offset.storage.topic", PREFIX + "-offsets",
                    "status.storage.topic", PREFIX + "-status",
                    "rest.extension.classes", DeadLetterRestExtension.class.getName(),
                    MonitorConfig.TOPICS_CONFIG, DLQ + "," + SCRIPTED_DLQ,
                    MonitorConfig.EXPOSE_PAYLOAD_CONFIG, "true")).start());
        }
    }

    @AfterAll
    static void stopWorkers() {
        workers.forEach(LocalConnect::close);
    }

    @Test
    void eachWorkerShowsOnlyItsOwnShareAndSaysWhichPartitionsAreMissing() {
        for (LocalConnect worker : workers) {
            JsonNode[] last = new JsonNode[1];
            Await.until(() -> "an incomplete answer from " + worker.restUrl() + "; last: " + last[0],
                    Duration.ofSeconds(120), () -> {
                Answer answer = worker.rest().get("/dead-letters/" + DLQ);
                last[0] = answer.body();
                return answer.status() == 200 && answer.body().path("missing_partitions").size() > 0
                        && answer.body().path("total").asLong() > 0;
            });
            JsonNode answer = last[0];
            int missing = answer.path("missing_partitions").size();

            assertThat(answer.path("complete").asBoolean()).isFalse();
            assertThat(answer.path("incomplete_because").asText()).contains(MonitorConfig.PEER_SECRET_CONFIG);
            assertThat(answer.path("total").asLong()).isEqualTo((long) (PARTITIONS - missing) * PER_PARTITION);
        }
    }

    @Test
    void dashboardSaysItsFiguresArePartialAndShowsHostileErrorMessagesAndValuesAsText() throws Exception {
        LocalConnect[] holder = new LocalConnect[1];
        Await.until(() -> "a worker sharing the work and holding the 3 records of " + SCRIPTED_DLQ,
                Duration.ofSeconds(120), () -> {
            for (LocalConnect worker : workers) {
                Answer answer = ConnectRest.at(worker.restUrl()).get("/dead-letters/" + SCRIPTED_DLQ);
                // incomplete: both workers are in the group, and this one holds the topic's only partition
                if (answer.status() == 200 && !answer.body().path("complete").asBoolean()
                        && answer.body().path("total").asLong() == 3) {
                    holder[0] = worker;
                }
            }
            return holder[0] != null;
        });

        try (DashboardPage page = DashboardPage.open(holder[0].restUrl(), null, null)) {
            page.await(() -> page.text("notice").startsWith("Partial figures"), () -> "the sign of partial figures");
            assertThat(page.text("notice")).contains(MonitorConfig.PEER_SECRET_CONFIG, "missing partitions");
            page.openTopicWithKeyboard(SCRIPTED_DLQ);
            page.await(() -> page.recordDetails().size() == 9, () -> "the error message, key and value of 3 records");

            assertThat(page.recordDetails()).containsOnly("Error: " + DeadLetterTestData.SCRIPT
                    + DeadLetterTestData.IMAGE, "Key: k", "Value: " + DeadLetterTestData.IMAGE);
            assertThat(page.displayed("t-payload-note")).isFalse();
            assertThat(page.script("return window.__pwned === undefined")).isEqualTo(true);
            assertThat(page.title()).isEqualTo("Dead letters: " + SCRIPTED_DLQ);
            assertThat(page.count("img")).isZero();
            assertThat(page.consoleErrors()).isEmpty();
        }
    }

    @Test
    void answersNoOtherWorkerWithoutASecret() {
        for (LocalConnect worker : workers) {
            Answer answer = ConnectRest.at(PeerRequests.url(worker)).get(Peers.PARTIALS_FULL_PATH
                    + "?partitions=0&records=0", Map.of(PeerAuth.TIME_HEADER, String.valueOf(System.currentTimeMillis()),
                    PeerAuth.SIGNATURE_HEADER, "Zm9yZ2Vk"));

            assertThat(answer.status()).as(answer.text()).isEqualTo(403);
            assertThat(answer.body().path("category").asText()).isEqualTo("FORBIDDEN");
        }
    }
}
