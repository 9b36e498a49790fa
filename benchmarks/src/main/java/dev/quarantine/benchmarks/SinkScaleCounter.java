package dev.quarantine.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import dev.quarantine.sandbox.LocalKafka;

/**
 * Counts what a {@code read_committed} consumer sees in the sink's target partitions and its dead-letter topic, and
 * notes when the first record landed, when every awaited target partition had one (every source partition open
 * and writing: each source partition writes its own target partition), and when the count reached the goal.
 */
final class SinkScaleCounter implements AutoCloseable {

    /** {@link System#nanoTime()} of the first record, of every target partition having one, and of the goal. */
    record Landed(long firstNanos, long allPartitionsNanos, long doneNanos, long seen) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Set<TopicPartition> waiting;
    private final Map<TopicPartition, Long> counts = new HashMap<>();

    /** @param awaited the target partitions that are to receive a record (not every record of theirs poison) */
    SinkScaleCounter(LocalKafka kafka, List<TopicPartition> targets, String deadLetterTopic,
                     List<TopicPartition> awaited) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        // an observer, not the system measured: fewer, larger fetches (over thousands of partitions each fetch costs
        // the broker and this JVM CPU the worker would otherwise have); the end is seen at most 100 ms late
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, Integer.getInteger("counter.fetch.min.bytes", 1 << 20));
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> all = new ArrayList<>(targets);
        all.add(new TopicPartition(deadLetterTopic, 0));
        consumer.assign(all);
        consumer.seekToBeginning(all);
        all.forEach(consumer::position);
        waiting = new HashSet<>(awaited);
    }

    /**
     * Polls until {@code goal} records were seen and every target partition had one; throws when
     * {@code deadlineNanos} passes, with what {@code onTimeout} reports.
     */
    Landed await(long goal, long deadlineNanos, Supplier<String> onTimeout) {
        long first = 0;
        long allPartitions = 0;
        long seen = 0;
        while (seen < goal || !waiting.isEmpty()) {
            if (System.nanoTime() > deadlineNanos) {
                throw new IllegalStateException(seen + " of " + goal + " records landed, " + waiting.size()
                        + " target partitions still without a record, at the deadline; " + onTimeout.get());
            }
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
            if (records.isEmpty()) {
                continue;
            }
            first = first == 0 ? System.nanoTime() : first;
            for (ConsumerRecord<byte[], byte[]> record : records) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                waiting.remove(partition);
                counts.merge(partition, 1L, Long::sum);
            }
            if (allPartitions == 0 && waiting.isEmpty()) {
                allPartitions = System.nanoTime();
            }
            seen += records.count();
        }
        return new Landed(first, allPartitions, System.nanoTime(), seen);
    }

    /** The partitions whose count differs from {@code expected}, with both counts. */
    Map<TopicPartition, String> differences(Map<TopicPartition, Long> expected) {
        Map<TopicPartition, String> differences = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        expected.forEach((partition, count) -> {
            long seen = counts.getOrDefault(partition, 0L);
            if (seen != count) {
                differences.put(partition, seen + " of " + count);
            }
        });
        return differences;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
