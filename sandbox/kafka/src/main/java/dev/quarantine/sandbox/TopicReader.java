package dev.quarantine.sandbox;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads what a topic holds, the way a read_committed consumer sees it. For tests and the quickstart. */
public final class TopicReader {

    private TopicReader() {
    }

    /**
     * Every committed record of {@code topic} (all partitions, from the start up to the current end), as raw bytes.
     * Waits until the read_committed consumer's position reaches the log end offsets (as a read_uncommitted reader
     * sees them), so aborted and pending data is never counted and a transaction whose commit has returned but
     * whose markers are still being written is waited for, not missed.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(LocalKafka kafka, String topic, Duration timeout) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "topic-reader-" + UUID.randomUUID());
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = logEndOffsets(kafka, partitions, timeout);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            Instant deadline = Instant.now().plus(timeout);
            while (!reached(consumer, end)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("could not read " + topic + " up to its end offsets " + end
                            + " within " + timeout.toSeconds() + " s (a transaction still open?)");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    /** Polls until {@code count} records arrived or the timeout passed; fails with how many arrived. */
    public static <K, V> List<ConsumerRecord<K, V>> pollUntil(Consumer<K, V> consumer, int count, Duration timeout) {
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        Instant deadline = Instant.now().plus(timeout);
        while (records.size() < count) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("expected " + count + " records within " + timeout.toSeconds()
                        + " s, got " + records.size());
            }
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return records;
    }

    private static Map<TopicPartition, Long> logEndOffsets(LocalKafka kafka, List<TopicPartition> partitions,
                                                           Duration timeout) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "topic-reader-end-" + UUID.randomUUID());
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return consumer.endOffsets(partitions, timeout);
        }
    }

    private static boolean reached(Consumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }
}
