package dev.quarantine.connect.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import dev.quarantine.sandbox.LocalKafka;

/** A read_committed consumer of some topics that keeps everything it saw, to wait for counts with a deadline. */
final class TargetCollector implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();

    TargetCollector(LocalKafka kafka, List<String> topics) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "collector-" + UUID.randomUUID());
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Polls until at least {@code count} records arrived; fails with how many did. */
    List<ConsumerRecord<byte[], byte[]>> awaitAtLeast(int count, Duration timeout) {
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

    /** Keeps polling for {@code quiet}, to catch any record beyond the expected ones (a duplicate). */
    List<ConsumerRecord<byte[], byte[]>> drain(Duration quiet) {
        Instant until = Instant.now().plus(quiet);
        while (Instant.now().isBefore(until)) {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return List.copyOf(records);
    }

    int size() {
        consumer.poll(Duration.ZERO).forEach(records::add);
        return records.size();
    }

    @Override
    public void close() {
        consumer.close();
    }
}
