package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.replay.letters.HeaderText;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;

/**
 * Error-class headers shaped by whoever may write to a dead-letter topic: each as long as a class name may be
 * ({@link HeaderText#MAX_NAME_CHARS}), and more distinct ones than the totals keep. The totals by error class stay
 * bounded: at most {@link TopicStats#MAX_KEYS} names, the rest counted under {@link TopicStats#OTHER}. A longer header
 * is no class name: counted as unknown (DeadLetterReaderTest). On a real broker, the monitor in process.
 */
@ExtendWith(LocalKafkaExtension.class)
class MonitorHostileErrorClassesIT {

    private static final Duration DEADLINE = Duration.ofSeconds(120);
    private static final int DISTINCT = TopicStats.MAX_KEYS + 100;
    private static final int HEADER_BYTES = HeaderText.MAX_NAME_CHARS - 20;

    @Test
    void totalsByErrorClassKeepEachNameCutAndAtMostTheirCapOfNamesCountingTheRestAsOther(LocalKafka kafka) {
        String dlq = "hostile-classes-" + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(dlq, 1, Map.of());
        produceDistinctHugeErrorClasses(kafka, dlq);
        Map<String, Object> settings = Map.of("group.id", dlq + "-group", "bootstrap.servers",
                kafka.bootstrapServers(), MonitorConfig.TOPICS_CONFIG, dlq,
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "500");
        try (Monitor monitor = InProcessMonitor.create(settings)) {
            monitor.start();

            TopicStats stats = Await.value("the monitor's totals of all " + DISTINCT + " dead letters of " + dlq,
                    DEADLINE, () -> {
                        try {
                            TopicStats now = new LocalReader(monitor.current().queries(), Duration.ofSeconds(1))
                                    .read(0, new PartitionFigures.Query(dlq, 0),
                                            System.currentTimeMillis()).stats().get(dlq);
                            return now != null && now.total() == DISTINCT ? now : null;
                        } catch (RuntimeException notReadyYet) {
                            return null;
                        }
                    });

            Map<String, Long> byErrorClass = stats.byErrorClass();
            assertThat(byErrorClass).hasSize(TopicStats.MAX_KEYS + 1).containsEntry(TopicStats.OTHER,
                    (long) DISTINCT - TopicStats.MAX_KEYS);
            assertThat(byErrorClass.keySet()).allSatisfy(name -> assertThat(name)
                    .hasSizeLessThanOrEqualTo(HeaderText.MAX_NAME_CHARS));
            assertThat(byErrorClass.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(DISTINCT);
        }
    }

    /** {@link #DISTINCT} dead letters, each with its own error class of {@link #HEADER_BYTES} bytes. */
    private static void produceDistinctHugeErrorClasses(LocalKafka kafka, String topic) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < DISTINCT; i++) {
                String errorClass = String.format("org.example.E%04d", i) + "x".repeat(HEADER_BYTES);
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, 0, null, new byte[] {1});
                record.headers().add(DeadLetterHeaders.CONNECT_EXCEPTION, errorClass.getBytes(StandardCharsets.UTF_8));
                record.headers().add(DeadLetterHeaders.CONNECT_TOPIC, "orders".getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
        }
    }
}
