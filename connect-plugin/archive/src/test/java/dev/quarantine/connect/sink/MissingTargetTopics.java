package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;

/** The fault "the target topic does not exist", run against brokers that do and do not create topics on first use. */
final class MissingTargetTopics {

    private static final Duration LANDED = Duration.ofSeconds(120);

    private MissingTargetTopics() {
    }

    /**
     * A source topic of 4 partitions whose target topic does not exist: the connector creates it with 4 partitions
     * and the configs given, every record keeps its partition, only the poison records are dead-lettered, and copying
     * goes on.
     */
    static void copyIntoAMissingTargetTopic(LocalKafka kafka, LocalConnect connect, String test) throws Exception {
        String name = test + "-" + Long.toHexString(System.nanoTime()).substring(6);
        String dlq = name + "-dlq";
        kafka.createTopic(name, 4, Map.of());
        kafka.createTopic(dlq, 1, Map.of());
        NumberedRecords records = new NumberedRecords(kafka, name, 4);
        records.produce(0, 2_000);

        connect.createConnector(name, records.connectorConfig(dlq));
        connect.awaitRunning(name, 2, Duration.ofSeconds(90));
        try (TopicReader copied = TopicReader.open(kafka, awaitTopic(kafka, records.target()));
             TopicReader letters = TopicReader.open(kafka, List.of(dlq))) {
            copied.awaitAtLeast(records.good(2_000), LANDED);
            letters.awaitAtLeast(records.poison(2_000), LANDED);
            records.produce(2_000, 2_400);
            copied.awaitAtLeast(records.good(2_400), LANDED);
            letters.awaitAtLeast(records.poison(2_400), LANDED);

            List<ConsumerRecord<byte[], byte[]>> all = copied.drain(Duration.ofSeconds(3));
            records.assertExactlyOnce(all, letters.drain(Duration.ZERO), 2_400);
            assertThat(all).allSatisfy(r -> assertThat(r.partition()).as("keeps its partition")
                    .isEqualTo(NumberedRecords.id(r) % 4));
            assertThat(letters.drain(Duration.ZERO)).allSatisfy(letter -> assertThat(
                    TestData.header(letter, DeadLetterHeaders.CONNECT_EXCEPTION)).as("only too large records")
                    .isEqualTo("org.apache.kafka.common.errors.RecordTooLargeException"));
        }
        TopicDescription created = describe(kafka, records.target());
        assertThat(created.partitions()).as("partitions of the source topic").hasSize(4);
        assertThat(LocalConnect.isRunning(connect.status(name), 2)).isTrue();
        connect.deleteConnector(name);
    }

    /** Waits until the connector created the topic; returns it, for a collector to read. */
    static List<String> awaitTopic(LocalKafka kafka, String topic) {
        Await.until(() -> "target topic " + topic + " created by the connector", Duration.ofSeconds(90), () -> {
            try {
                describe(kafka, topic);
                return true;
            } catch (Exception e) {
                return false;
            }
        });
        return List.of(topic);
    }

    private static TopicDescription describe(LocalKafka kafka, String topic) throws Exception {
        try (Admin admin = kafka.admin()) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
        }
    }
}
