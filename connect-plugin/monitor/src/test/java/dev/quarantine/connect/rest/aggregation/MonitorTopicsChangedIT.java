package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * The topics the monitor's {@code topics.regex} matches change while it runs: one is deleted, a wider one is created.
 * The figures of every topic it reads stay answered and keep counting (real broker, in process). Both once failed for
 * good: Kafka Streams fixes the changelog's partition count at the widest topic read when it first ran, and every
 * stream thread then failed on "Existing internal topic ... has invalid partitions" ({@code SubscriptionWidth}).
 */
@ExtendWith(LocalKafkaExtension.class)
class MonitorTopicsChangedIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void keepsAnsweringAndCountingTheOtherTopicsOfItsPatternWhenOneOfThemIsDeleted(LocalKafka kafka) throws Exception {
        String prefix = "deleted-" + UUID.randomUUID().toString().substring(0, 8);
        String kept = prefix + "-kept-dlq";
        String gone = prefix + "-gone-dlq";
        // the deleted topic has more partitions than the kept one: the aggregation's tasks go from 3 to 2
        kafka.createTopic(kept, 2, Map.of());
        kafka.createTopic(gone, 3, Map.of());
        InProcessMonitor.produceDeadLetters(kafka, kept, 30, 2);
        InProcessMonitor.produceDeadLetters(kafka, gone, 20, 3);
        try (Monitor monitor = InProcessMonitor.create(settings(kafka, prefix))) {
            monitor.start();
            Await.until("both topics counted", DEADLINE, () -> total(monitor, kept, 2).equals(OptionalLong.of(30))
                    && total(monitor, gone, 3).equals(OptionalLong.of(20)));
            assertThat(monitor.current().topics()).hasToString("[] and topics matching " + Pattern.quote(prefix)
                    + "-.*-dlq, 3 partitions wide");

            try (Admin admin = kafka.admin()) {
                admin.deleteTopics(List.of(gone)).all().get(30, TimeUnit.SECONDS);
            }
            InProcessMonitor.produceDeadLetters(kafka, kept, 6, 2);

            // answered by the aggregation as wide as what is left (the one before fails on its changelog for good)
            Await.until(() -> "the kept topic's 36 answered after the other's deletion; now " + total(monitor, kept, 2)
                    + " from " + monitor.topics(), DEADLINE, () -> monitor.topics().toString().endsWith(
                    "2 partitions wide") && total(monitor, kept, 2).equals(OptionalLong.of(36)));
            assertThat(monitor.current().topics().toString()).endsWith("2 partitions wide");
            assertThat(monitor.current().isRunning()).isTrue();
        }
    }

    @Test
    void countsATopicOfItsPatternCreatedWiderThanTheOthers(LocalKafka kafka) {
        String prefix = "wider-" + UUID.randomUUID().toString().substring(0, 8);
        String narrow = prefix + "-narrow-dlq";
        String wide = prefix + "-wide-dlq";
        kafka.createTopic(narrow, 1, Map.of());
        InProcessMonitor.produceDeadLetters(kafka, narrow, 10, 1);
        try (Monitor monitor = InProcessMonitor.create(settings(kafka, prefix))) {
            monitor.start();
            Await.until("the narrow topic counted", DEADLINE, () -> total(monitor, narrow, 1)
                    .equals(OptionalLong.of(10)));

            kafka.createTopic(wide, 3, Map.of());
            InProcessMonitor.produceDeadLetters(kafka, wide, 12, 3);
            InProcessMonitor.produceDeadLetters(kafka, narrow, 2, 1);

            Await.until(() -> "both topics counted after the wider one appeared; now " + total(monitor, narrow, 1)
                    + " and " + total(monitor, wide, 3), DEADLINE, () -> total(monitor, narrow, 1)
                    .equals(OptionalLong.of(12)) && total(monitor, wide, 3).equals(OptionalLong.of(12)));
            assertThat(monitor.current().isRunning()).isTrue();
        }
    }

    /**
     * A monitor of the topics matching {@code <prefix>-.*-dlq}, discovering every 500 ms, whose Kafka Streams finds a
     * topic of its pattern created or deleted within a second (its consumer's metadata refresh).
     */
    private static Map<String, Object> settings(LocalKafka kafka, String prefix) {
        return Map.of("group.id", prefix + "-group", "bootstrap.servers", kafka.bootstrapServers(),
                MonitorConfig.TOPICS_REGEX_CONFIG, Pattern.quote(prefix) + "-.*-dlq",
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "500",
                MonitorConfig.STREAMS_PREFIX + "main.consumer.metadata.max.age.ms", "1000");
    }

    /**
     * The total of {@code topic} over the aggregation's partitions {@code 0..partitions-1}, as this worker's stores
     * answer it now; empty when one does not answer.
     */
    private static OptionalLong total(Monitor monitor, String topic, int partitions) {
        long total = 0;
        for (int partition = 0; partition < partitions; partition++) {
            try {
                TopicStats stats = new LocalReader(monitor.current().queries(), Duration.ofSeconds(1))
                        .read(partition, new PartitionFigures.Query(topic, 0), System.currentTimeMillis()).stats()
                        .get(topic);
                total += stats == null ? 0 : stats.total();
            } catch (RuntimeException notAnswered) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(total);
    }
}
