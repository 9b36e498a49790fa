package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.FaultSuite.LANDED;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalCluster;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * Topics that are missing, or deleted under a running connector, on the shared broker (which does not create topics
 * on first use), with a Connect worker as its own JVM loading the plugin from plugin.path.
 */
class TopicFaultsIT {

    @RegisterExtension
    static final LocalCluster cluster = LocalCluster.sharedBroker().withWorkers(1, FaultSuite::worker);

    @Test
    void createsAMissingTargetTopicWithItsSourcesPartitionsOnABrokerThatDoesNotCreateTopics() throws Exception {
        MissingTargetTopics.copyIntoAMissingTargetTopic(cluster.kafka(), cluster.worker(), "no-auto-create");
    }

    @Test
    void losesNothingAndRepeatsNothingWhenTheDeadLetterTopicIsDeletedAndCreatedAgainMidRun() throws Exception {
        Run run = new Run("dlq-purge", id -> NumberedRecords.isPoison(id) && (id < 1_000 || id >= 2_000));
        run.records.produce(0, 1_000);
        cluster.worker().createConnector(run.name, run.config);
        cluster.worker().awaitRunning(run.name, 2, Duration.ofSeconds(90));
        List<ConsumerRecord<byte[], byte[]>> purged;
        try (TopicReader letters = TopicReader.open(cluster.kafka(), List.of(run.dlq))) {
            purged = letters.awaitAtLeast(run.records.poison(1_000), LANDED);
        }
        Thread goodOnly = run.produceInBackground(1_000, 2_000); // no poison while the DLQ is gone

        recreate(run.dlq);
        goodOnly.join(TimeUnit.MINUTES.toMillis(2));
        cluster.worker().restartConnector(run.name); // its partitions resume from their progress
        cluster.worker().awaitRunning(run.name, 2, Duration.ofSeconds(90));
        run.records.produce(2_000, 2_600);

        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of(run.records.target()));
             TopicReader letters = TopicReader.open(cluster.kafka(), List.of(run.dlq))) {
            copied.awaitAtLeast(run.records.good(2_600), LANDED);
            letters.awaitAtLeast(run.records.poison(2_600) - purged.size(), LANDED);
            List<ConsumerRecord<byte[], byte[]>> allLetters = new ArrayList<>(purged);
            allLetters.addAll(letters.drain(Duration.ofSeconds(3)));
            run.records.assertExactlyOnce(copied.drain(Duration.ZERO), allLetters, 2_600);
        }
        assertThat(LocalConnect.isRunning(cluster.worker().status(run.name), 2)).isTrue();
        cluster.worker().deleteConnector(run.name);
    }

    @Test
    void failsTheTaskNamingTheProgressTopicWhenItIsDeletedMidRunAndGoesOnOnceItIsBack() throws Exception {
        Run run = new Run("progress-gone", NumberedRecords::isPoison);
        run.config.put("target.producer.max.block.ms", "10000");
        // a progress record in flight when the topic is deleted is retried until the producer's delivery timeout
        // (120 s by default, as long as the wait below): the task fails then, naming the topic; lowered here
        run.config.put("target.producer.request.timeout.ms", "10000");
        run.config.put("target.producer.delivery.timeout.ms", "20000");
        String progress = run.name + ".progress.internal";
        run.records.produce(0, 600);
        cluster.worker().createConnector(run.name, run.config);
        cluster.worker().awaitRunning(run.name, 2, Duration.ofSeconds(90));
        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of(run.records.target()))) {
            copied.awaitAtLeast(run.records.good(600), LANDED);
        }

        try (Admin admin = cluster.kafka().admin()) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, progress);
            assertThat(admin.describeTopics(List.of(progress)).allTopicNames().get(30, TimeUnit.SECONDS).get(progress)
                    .partitions()).as("created by the connector, like Connect's internal topics").hasSize(2);
            assertThat(admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource)
                    .get("cleanup.policy").value()).isEqualTo("compact");
            admin.deleteTopics(List.of(progress)).all().get(30, TimeUnit.SECONDS);
        }
        run.records.produce(600, 1_200);
        JsonNode failed = cluster.worker().awaitFailedTask(run.name, Duration.ofSeconds(120));
        assertThat(failed.path("trace").asText()).contains("The progress topic " + progress + " does not exist");

        cluster.kafka().createTopic(progress, 2, Map.of("cleanup.policy", "compact"));
        cluster.worker().restartConnector(run.name);
        cluster.worker().awaitRunning(run.name, 2, Duration.ofSeconds(90));
        run.records.produce(1_200, 1_600);
        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of(run.records.target()));
             TopicReader letters = TopicReader.open(cluster.kafka(), List.of(run.dlq))) {
            copied.awaitAtLeast(run.records.good(1_600), LANDED);
            letters.awaitAtLeast(run.records.poison(1_600), LANDED);
            run.records.assertExactlyOnce(copied.drain(Duration.ofSeconds(3)), letters.drain(Duration.ZERO),
                    1_600);
        }
        assertThat(LocalConnect.isRunning(cluster.worker().status(run.name), 2)).isTrue();
        cluster.worker().deleteConnector(run.name);
    }

    @Test
    void copiesEveryRecordOfASourceTopicDeletedAndCreatedAgainWithTheSameName() throws Exception {
        // the new topic's offsets start at 0 again
        Run run = copyAcrossARecreatedSource("source-again", 2_500);

        List<String> warnings = cluster.worker().logLines().stream()
                .filter(line -> line.contains("WARN") && line.contains("Source topic " + run.name + " (topic id"))
                .toList();
        assertThat(warnings).as("one WARN per partition's task naming the topic").hasSize(2)
                .anySatisfy(w -> assertThat(w).contains(run.name + "-0@0"))
                .anySatisfy(w -> assertThat(w).contains(run.name + "-1@0"));
        cluster.worker().deleteConnector(run.name);
    }

    @Test
    void copiesEveryRecordOfASourceTopicCreatedAgainShorterThanTheOldTopicsProgress() throws Exception {
        // far below the old progress: the consumers' positions are out of range
        Run run = copyAcrossARecreatedSource("source-shorter", 1_010);

        cluster.worker().deleteConnector(run.name);
    }

    /**
     * Copies 1,000 records of a new source topic (no poison), deletes the topic and creates it again with the same
     * name, produces ids 1,000 to {@code total - 1} into the new one, and checks that all {@code total} landed
     * exactly once and the connector runs on; returns the run, its connector still there.
     */
    private static Run copyAcrossARecreatedSource(String test, int total) throws Exception {
        Run run = new Run(test, id -> false);
        run.records.produce(0, 1_000);
        cluster.worker().createConnector(run.name, run.config);
        cluster.worker().awaitRunning(run.name, 2, Duration.ofSeconds(90));
        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of(run.records.target()))) {
            copied.awaitAtLeast(1_000, LANDED);
        }

        recreate(run.name, 2);
        run.records.produce(1_000, total);

        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of(run.records.target()));
             TopicReader letters = TopicReader.open(cluster.kafka(), List.of(run.dlq))) {
            copied.awaitAtLeast(total, LANDED);
            run.records.assertExactlyOnce(copied.drain(Duration.ofSeconds(3)), letters.drain(Duration.ZERO), total);
        }
        assertThat(LocalConnect.isRunning(cluster.worker().status(run.name), 2)).isTrue();
        return run;
    }

    /** Deletes a topic and creates it again as it was (one partition), as operators purge a dead-letter topic. */
    private static void recreate(String topic) throws Exception {
        recreate(topic, 1);
    }

    /** Deletes a topic and creates it again with {@code partitions}, as operators purge a topic. */
    private static void recreate(String topic, int partitions) throws Exception {
        try (Admin admin = cluster.kafka().admin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
        Await.until(() -> "topic " + topic + " created again after its deletion", Duration.ofSeconds(30), () -> {
            try {
                cluster.kafka().createTopic(topic, partitions, Map.of());
                return true;
            } catch (IllegalStateException stillBeingDeleted) {
                return false;
            }
        });
    }

    /** A source topic of 2 partitions, its target topic (4 KiB records at most) and a DLQ, with a connector config. */
    private static final class Run {
        final String name;
        final String dlq;
        final NumberedRecords records;
        final Map<String, String> config;

        Run(String test, IntPredicate poison) {
            name = test + "-" + Long.toHexString(System.nanoTime()).substring(6);
            dlq = name + "-dlq";
            cluster.kafka().createTopic(name, 2, Map.of());
            cluster.kafka().createTopic("copy." + name, 2, Map.of("max.message.bytes",
                    String.valueOf(NumberedRecords.TARGET_MAX_MESSAGE_BYTES)));
            cluster.kafka().createTopic(dlq, 1, Map.of());
            records = new NumberedRecords(cluster.kafka(), name, 2, poison);
            config = records.connectorConfig(dlq);
        }

        /** Produces {@code from..to-1} in batches of 100 on another thread. */
        Thread produceInBackground(int from, int to) {
            AtomicInteger next = new AtomicInteger(from);
            Thread thread = new Thread(() -> {
                while (next.get() < to) {
                    int start = next.getAndAdd(100);
                    records.produce(start, Math.min(start + 100, to));
                }
            }, name + "-producer");
            thread.start();
            return thread;
        }
    }
}
