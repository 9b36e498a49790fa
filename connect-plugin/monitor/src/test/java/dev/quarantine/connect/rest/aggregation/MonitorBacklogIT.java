package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerRecords;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;

/**
 * The monitor says it is catching up while its aggregation still has dead letters to read, and stops saying so once
 * it has read them: Kafka Streams' own consumer metrics ({@link Backlog}) on a real broker, in process.
 */
@ExtendWith(LocalKafkaExtension.class)
class MonitorBacklogIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final int DEAD_LETTERS = 2_000;

    @Test
    void saysHowManyDeadLettersItHasStillToReadUntilItHasReadThemAll(LocalKafka kafka) {
        String dlq = "backlog-" + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(dlq, 2, Map.of());
        InProcessMonitor.produceDeadLetters(kafka, dlq, DEAD_LETTERS);
        SlowPolls.SLOW.set(true);
        Map<String, Object> settings = Map.of("group.id", dlq + "-group", "bootstrap.servers",
                kafka.bootstrapServers(), MonitorConfig.TOPICS_CONFIG, dlq,
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "500",
                MonitorConfig.STREAMS_PREFIX + "main.consumer.max.poll.records", "20",
                MonitorConfig.STREAMS_PREFIX + "main.consumer.interceptor.classes", SlowPolls.class.getName());
        try (Monitor monitor = InProcessMonitor.create(settings)) {
            monitor.start();

            OptionalLong behind = Await.value("the monitor saying it is behind", DEADLINE, () -> {
                OptionalLong now = monitor.recordsBehind();
                return now.isPresent() ? now : null;
            });
            assertThat(behind.getAsLong()).isBetween(1L, (long) DEAD_LETTERS);

            SlowPolls.SLOW.set(false);
            Await.until("the monitor caught up (nothing behind)", DEADLINE, () -> monitor.recordsBehind().isEmpty());
        } finally {
            SlowPolls.SLOW.set(false);
        }
    }

    /** Slows the aggregation's polls while {@link #SLOW} is set, so that it is behind for a while. */
    public static final class SlowPolls extends ConsumeOnlyInterceptor {

        static final AtomicBoolean SLOW = new AtomicBoolean();

        @Override
        public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
            if (SLOW.get() && !records.isEmpty()) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return records;
        }
    }
}
