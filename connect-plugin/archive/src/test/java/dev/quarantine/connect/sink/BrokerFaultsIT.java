package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/**
 * Faults of the broker itself, on a broker of this class's own (it is killed, and it creates topics on first use,
 * Kafka's default, with one partition), and a Connect worker as its own JVM loading the plugin from plugin.path.
 */
class BrokerFaultsIT {

    private static final Duration LANDED = Duration.ofSeconds(180);

    private static LocalKafka kafka;
    private static LocalConnect connect;

    @BeforeAll
    static void start() {
        kafka = LocalKafka.create(Map.of("auto.create.topics.enable", "true", "num.partitions", "1")).start();
        connect = NumberedRecords.startWorker(kafka);
    }

    @AfterAll
    static void stop() {
        if (connect != null) {
            connect.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void createsAMissingTargetTopicWithItsSourcesPartitionsBeforeTheBrokerCreatesItOnFirstUse() throws Exception {
        MissingTargetTopics.copyIntoAMissingTargetTopic(kafka, connect, "auto-create");
    }

    @Test
    void staysExactlyOnceWhenTheBrokerIsKilledAndRestartedMidRunWithPoisonFlowing() throws Exception {
        String name = "broker-kill-" + Long.toHexString(System.nanoTime()).substring(6);
        String dlq = name + "-dlq";
        kafka.createTopic(name, 2, Map.of());
        kafka.createTopic(dlq, 1, Map.of());
        NumberedRecords records = new NumberedRecords(kafka, name, 2);
        int total = 4_000;
        AtomicInteger produced = new AtomicInteger();
        Thread producer = new Thread(() -> {
            for (int from = 0; from < total; from += 100) {
                records.produce(from, from + 100); // waits out the broker's downtime (delivery.timeout.ms)
                produced.set(from + 100);
            }
        }, "broker-kill-producer");
        connect.createConnector(name, records.connectorConfig(dlq));
        connect.awaitRunning(name, 2, Duration.ofSeconds(90));
        producer.start();
        List<String> target = MissingTargetTopics.awaitTopic(kafka, records.target());
        try (TargetCollector copied = new TargetCollector(kafka, target);
             TargetCollector letters = new TargetCollector(kafka, List.of(dlq))) {
            copied.awaitAtLeast(500, LANDED);
            int landed = copied.size() + letters.size();
            kafka.kill();
            kafka.restart();
            assertThat(landed).as("the kill landed mid-run").isLessThan(total);

            producer.join(TimeUnit.MINUTES.toMillis(3));
            assertThat(produced.get()).isEqualTo(total);
            try {
                copied.awaitAtLeast(records.good(total), LANDED);
                letters.awaitAtLeast(records.poison(total), LANDED);
                records.assertExactlyOnce(copied.drain(Duration.ofSeconds(3)), letters.drain(Duration.ZERO), total);
            } catch (AssertionError | IllegalStateException e) {
                List<TopicPartition> partitions = new ArrayList<>();
                for (int p = 0; p < 2; p++) {
                    partitions.add(new TopicPartition(records.target(), p));
                }
                partitions.add(new TopicPartition(dlq, 0));
                for (int p = 0; p < 3; p++) {
                    partitions.add(new TopicPartition("__consumer_offsets", p));
                }
                e.addSuppressed(new AssertionError("evidence kept in "
                        + FailureEvidence.keep(kafka, connect, partitions, copied.drain(Duration.ZERO))));
                throw e;
            }
        }
        connect.awaitRunning(name, 2, Duration.ofSeconds(60));
        connect.deleteConnector(name);
    }
}
