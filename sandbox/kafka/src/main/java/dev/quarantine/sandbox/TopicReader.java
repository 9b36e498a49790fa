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

/**
 * The one way tests, the quickstart and the benchmarks read topics back, the way a read_committed consumer sees
 * them: {@link #readCommitted} for what a topic holds now, or a reader {@link #open}ed on some topics that keeps
 * every record it saw, to wait for counts with a deadline while a connector or an application is still writing.
 */
public final class TopicReader implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();

    private TopicReader(KafkaConsumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    /** A read_committed reader of every partition of {@code topics}, from their beginning; the caller closes it. */
    public static TopicReader open(LocalKafka kafka, List<String> topics) {
        KafkaConsumer<byte[], byte[]> consumer = committedConsumer(kafka, "topic-reader-");
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                consumer.partitionsFor(topic, Duration.ofSeconds(30))
                        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            return new TopicReader(consumer);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /** Polls until at least {@code count} records arrived in all; returns all seen; fails with how many did. */
    public List<ConsumerRecord<byte[], byte[]>> awaitAtLeast(int count, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (records.size() < count) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("expected at least " + count + " committed records within "
                        + timeout.toSeconds() + " s, got " + records.size());
            }
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return List.copyOf(records);
    }

    /** Keeps polling for {@code quiet}, to catch any record beyond the expected ones (a duplicate); returns all. */
    public List<ConsumerRecord<byte[], byte[]>> drain(Duration quiet) {
        Instant until = Instant.now().plus(quiet);
        do {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        } while (Instant.now().isBefore(until));
        return List.copyOf(records);
    }

    /** How many records arrived so far. */
    public int size() {
        consumer.poll(Duration.ZERO).forEach(records::add);
        return records.size();
    }

    @Override
    public void close() {
        consumer.close();
    }

    /**
     * Every committed record of {@code topic} (all partitions, from the start up to the current end), as raw bytes.
     * Waits until the read_committed consumer's position reaches the log end offsets (as a read_uncommitted reader
     * sees them), so aborted and pending data is never counted and a transaction whose commit has returned but
     * whose markers are still being written is waited for, not missed.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(LocalKafka kafka, String topic, Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = committedConsumer(kafka, "topic-reader-")) {
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

    /**
     * The records of {@code topic} committed so far: read_committed up to the last stable offsets, so a transaction
     * still open (its records sent, not committed) is not waited for, and nothing of it is read.
     */
    public static List<ConsumerRecord<byte[], byte[]>> committedSoFar(LocalKafka kafka, String topic,
                                                                      Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = committedConsumer(kafka, "topic-reader-")) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> stable = consumer.endOffsets(partitions, timeout);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            Instant deadline = Instant.now().plus(timeout);
            while (!reached(consumer, stable)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("could not read " + topic + " up to its last stable offsets "
                            + stable + " within " + timeout.toSeconds() + " s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    /** The log end offsets of {@code topic}'s partitions, as a read_uncommitted reader sees them. */
    public static Map<TopicPartition, Long> logEndOffsets(LocalKafka kafka, String topic, Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = committedConsumer(kafka, "topic-reader-")) {
            return logEndOffsets(kafka, consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList(), timeout);
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

    private static KafkaConsumer<byte[], byte[]> committedConsumer(LocalKafka kafka, String clientIdPrefix) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientIdPrefix + UUID.randomUUID());
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
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
