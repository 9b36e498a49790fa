package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.FaultSuite.LANDED;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.LocalCluster;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * Faults of the broker itself, on a broker of this class's own (it is killed, and it creates topics on first use,
 * Kafka's default, with one partition), and a Connect worker as its own JVM loading the plugin from plugin.path.
 */
class BrokerFaultsIT {

    /** A broker of its own: it is killed, and it creates topics on first use (Kafka's default). */
    @RegisterExtension
    static final LocalCluster cluster = LocalCluster.ownBroker(
            Map.of("auto.create.topics.enable", "true", "num.partitions", "1")).withWorkers(1, FaultSuite::worker);

    @Test
    void createsAMissingTargetTopicWithItsSourcesPartitionsBeforeTheBrokerCreatesItOnFirstUse() throws Exception {
        MissingTargetTopics.copyIntoAMissingTargetTopic(cluster.kafka(), cluster.worker(), "auto-create");
    }

    @Test
    void staysExactlyOnceWhenTheBrokerIsKilledAndRestartedMidRunWithPoisonFlowing() throws Exception {
        String name = "broker-kill-" + Long.toHexString(System.nanoTime()).substring(6);
        String dlq = name + "-dlq";
        cluster.kafka().createTopic(name, 2, Map.of());
        cluster.kafka().createTopic(dlq, 1, Map.of());
        NumberedRecords records = new NumberedRecords(cluster.kafka(), name, 2);
        int total = 4_000;
        AtomicInteger produced = new AtomicInteger();
        Thread producer = new Thread(() -> {
            for (int from = 0; from < total; from += 100) {
                records.produce(from, from + 100); // waits out the broker's downtime (delivery.timeout.ms)
                produced.set(from + 100);
            }
        }, "broker-kill-producer");
        cluster.worker().createConnector(name, records.connectorConfig(dlq));
        cluster.worker().awaitRunning(name, 2, Duration.ofSeconds(90));
        producer.start();
        List<String> target = MissingTargetTopics.awaitTopic(cluster.kafka(), records.target());
        try (TopicReader copied = TopicReader.open(cluster.kafka(), target);
             TopicReader letters = TopicReader.open(cluster.kafka(), List.of(dlq))) {
            copied.awaitAtLeast(500, LANDED);
            int landed = copied.size() + letters.size();
            cluster.kafka().kill();
            cluster.kafka().restart();
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
                        + FailureEvidence.keep(cluster.kafka(), cluster.worker(), partitions,
                        copied.drain(Duration.ZERO))));
                throw e;
            }
        }
        cluster.worker().awaitRunning(name, 2, Duration.ofSeconds(60));
        cluster.worker().deleteConnector(name);
    }
}
