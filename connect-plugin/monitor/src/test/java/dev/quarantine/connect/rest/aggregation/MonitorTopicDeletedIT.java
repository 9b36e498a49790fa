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
 * A dead-letter topic the monitor's {@code topics.regex} matches is deleted while it runs: the figures of the other
 * topics it matches stay answered and keep counting (real broker, in process).
 */
@ExtendWith(LocalKafkaExtension.class)
class MonitorTopicDeletedIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void keepsAnsweringAndCountingTheOtherTopicsOfItsPatternWhenOneOfThemIsDeleted(LocalKafka kafka) throws Exception {
        String prefix = "deleted-" + UUID.randomUUID().toString().substring(0, 8);
        String kept = prefix + "-kept-dlq";
        String gone = prefix + "-gone-dlq";
        kafka.createTopic(kept, 1, Map.of());
        kafka.createTopic(gone, 1, Map.of());
        InProcessMonitor.produceDeadLetters(kafka, kept, 30);
        InProcessMonitor.produceDeadLetters(kafka, gone, 20);
        Map<String, Object> settings = Map.of("group.id", prefix + "-group", "bootstrap.servers",
                kafka.bootstrapServers(), MonitorConfig.TOPICS_REGEX_CONFIG, Pattern.quote(prefix) + "-.*-dlq",
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "500");
        try (Monitor monitor = InProcessMonitor.create(settings)) {
            monitor.start();
            Await.until("both topics counted", DEADLINE, () -> total(monitor, kept).equals(OptionalLong.of(30))
                    && total(monitor, gone).equals(OptionalLong.of(20)));

            try (Admin admin = kafka.admin()) {
                admin.deleteTopics(List.of(gone)).all().get(30, TimeUnit.SECONDS);
            }
            InProcessMonitor.produceDeadLetters(kafka, kept, 5);

            Await.until(() -> "the kept topic's 35 answered after the other's deletion; now " + total(monitor, kept),
                    DEADLINE, () -> total(monitor, kept).equals(OptionalLong.of(35)));
            assertThat(monitor.current().isRunning()).isTrue();
        }
    }

    /** The total of {@code topic} as this worker's stores answer it now; empty when they do not answer it. */
    private static OptionalLong total(Monitor monitor, String topic) {
        try {
            TopicStats stats = new LocalReader(monitor.current().queries(), Duration.ofSeconds(1))
                    .read(0, new PartitionFigures.Query(topic, 0), System.currentTimeMillis()).stats().get(topic);
            return stats == null ? OptionalLong.empty() : OptionalLong.of(stats.total());
        } catch (RuntimeException notAnswered) {
            return OptionalLong.empty();
        }
    }
}
