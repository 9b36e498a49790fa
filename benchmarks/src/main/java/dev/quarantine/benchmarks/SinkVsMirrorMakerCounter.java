package dev.quarantine.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import dev.quarantine.sandbox.LocalKafka;

/**
 * Counts what a {@code read_committed} consumer sees in a connector's output topics, from their beginning, and notes
 * when the first record arrived and when the count reached the goal. Assigned (no group), positioned before the
 * connector is created.
 */
final class SinkVsMirrorMakerCounter implements AutoCloseable {

    /** When the first record and the goal-th record were seen ({@link System#nanoTime()}), and the counts by topic. */
    record Landed(long firstNanos, long doneNanos, Map<String, Long> byTopic) {
        long total() {
            return byTopic.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, Long> counts = new TreeMap<>();

    SinkVsMirrorMakerCounter(LocalKafka kafka, List<String> topics) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            counts.put(topic, 0L);
            for (PartitionInfo info : partitionsOf(topic)) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        partitions.forEach(consumer::position);
    }

    /**
     * Polls until {@code goal} records were seen, or throws when {@code deadlineNanos} passes, naming what
     * {@code onTimeout} reports (the connector's status).
     */
    Landed await(long goal, long deadlineNanos, java.util.function.Supplier<String> onTimeout) {
        long first = 0;
        long seen = 0;
        while (seen < goal) {
            if (System.nanoTime() > deadlineNanos) {
                throw new IllegalStateException("only " + seen + " of " + goal + " records landed in " + counts
                        + " before the deadline (positions " + positions() + ", last stable offsets "
                        + consumer.endOffsets(consumer.assignment()) + "); " + onTimeout.get());
            }
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
            if (records.isEmpty()) {
                continue;
            }
            if (first == 0) {
                first = System.nanoTime();
            }
            for (ConsumerRecord<byte[], byte[]> record : records) {
                counts.merge(record.topic(), 1L, Long::sum);
            }
            seen += records.count();
        }
        return new Landed(first, System.nanoTime(), Map.copyOf(counts));
    }

    /**
     * The partitions of a topic created a moment ago: until the broker's metadata has it, partitionsFor answers an
     * empty list, and a topic left unassigned would never be counted.
     */
    private List<PartitionInfo> partitionsOf(String topic) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (!partitions.isEmpty()) {
                return partitions;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + topic + " has no partitions in the metadata after 30 s");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while looking up " + topic, e);
            }
        }
    }

    private Map<TopicPartition, Long> positions() {
        Map<TopicPartition, Long> positions = new java.util.HashMap<>();
        consumer.assignment().forEach(p -> positions.put(p, consumer.position(p)));
        return positions;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
