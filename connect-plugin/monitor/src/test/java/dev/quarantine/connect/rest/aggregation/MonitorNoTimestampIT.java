package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;

/**
 * A dead letter without a timestamp (-1, {@code NO_TIMESTAMP}): the wire protocol carries it and the broker keeps it
 * (it checks the bounds of create times other than -1), so anyone who may write to a dead-letter topic can write one.
 * Kafka Streams' default timestamp extractor fails the stream thread on it, the replaced thread meets it again, for
 * ever, and no letter after it is counted. The monitor counts it (at its partition's time) and goes on. On a real
 * broker, the monitor in process.
 */
@ExtendWith(LocalKafkaExtension.class)
class MonitorNoTimestampIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    /** The protocol's "no timestamp" (Kafka's RecordBatch.NO_TIMESTAMP). */
    private static final long NO_TIMESTAMP = -1L;

    @Test
    void aDeadLetterWithoutATimestampIsCountedAndTheLettersAfterItToo(LocalKafka kafka) throws Exception {
        String dlq = "no-timestamp-" + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(dlq, 1, Map.of());
        InProcessMonitor.produceDeadLetters(kafka, dlq, 1);
        produceWithoutTimestamp(kafka, dlq);
        InProcessMonitor.produceDeadLetters(kafka, dlq, 2);
        ConsumerRecord<byte[], byte[]> stored = TopicReader.readCommitted(kafka, dlq, DEADLINE).get(1);
        assertThat(stored.timestamp()).as("the broker kept the letter without a timestamp")
                .isEqualTo(NO_TIMESTAMP);

        Map<String, Object> settings = Map.of("group.id", dlq + "-group", "bootstrap.servers",
                kafka.bootstrapServers(), MonitorConfig.TOPICS_CONFIG, dlq,
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "500");
        try (Monitor monitor = InProcessMonitor.create(settings)) {
            monitor.start();

            TopicStats stats = Await.value("the monitor's totals of the 4 dead letters of " + dlq, DEADLINE, () -> {
                try {
                    TopicStats now = new LocalReader(monitor.current().queries(), Duration.ofSeconds(1))
                            .read(0, new PartitionFigures.Query(dlq, 0), System.currentTimeMillis()).stats().get(dlq);
                    return now != null && now.total() == 4 ? now : null;
                } catch (RuntimeException notReadyYet) {
                    return null;
                }
            });
            assertThat(stats.total()).isEqualTo(4);
        }
    }

    /**
     * What any client on the wire may send: {@code KafkaProducer} refuses a negative timestamp in the
     * {@link ProducerRecord} constructor only; the batch it builds carries -1 as {@code NO_TIMESTAMP}.
     */
    private static void produceWithoutTimestamp(LocalKafka kafka, String topic) throws Exception {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, 0, 0L, null, new byte[] {1});
        record.headers().add("__connect.errors.topic", "orders".getBytes(StandardCharsets.UTF_8));
        Field timestamp = ProducerRecord.class.getDeclaredField("timestamp");
        timestamp.setAccessible(true);
        timestamp.set(record, NO_TIMESTAMP);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(record).get();
        }
    }
}
