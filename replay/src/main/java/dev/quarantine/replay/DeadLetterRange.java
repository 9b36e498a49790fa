package dev.quarantine.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a replay reads: the dead-letter topic, read_committed, from the committed next offsets up to the end of the
 * replay's range and never past it. Owns the replay's consumer; the range itself is the {@link ReplayProgress} the
 * engine passes in (this class keeps no state of its own beyond the consumer's positions).
 */
final class DeadLetterRange implements AutoCloseable {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    private final ReplayConfig config;
    private final Consumer<byte[], byte[]> consumer;

    /** @throws ConfigException from the consumer's own settings */
    DeadLetterRange(ReplayConfig config) {
        this(config, new KafkaConsumer<>(ReplayClients.consumerConfigs(config.clientConfigs(), config),
                new ByteArrayDeserializer(), new ByteArrayDeserializer()));
    }

    DeadLetterRange(ReplayConfig config, Consumer<byte[], byte[]> consumer) {
        this.config = config;
        this.consumer = consumer;
    }

    /** @throws ConfigException naming {@code dlq.topic.name} when the topic does not exist */
    List<TopicPartition> partitions() {
        List<TopicPartition> partitions = consumer.partitionsFor(config.dlqTopic(), config.progressReadTimeout())
                .stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        if (partitions.isEmpty()) {
            throw new ConfigException(ReplayConfig.DLQ_TOPIC_CONFIG, config.dlqTopic(), "the topic does not exist");
        }
        return partitions;
    }

    /**
     * A new replay's first progress: the topic's current start and read_committed end offsets, bounded by the offset
     * filters ({@link OffsetSelection#bound}) and by {@code replay.until.offsets} ({@link UntilOffsets}).
     */
    ReplayProgress capture(ReplayTopics topics, List<TopicPartition> partitions, Uuid dlqTopicId) {
        Map<Integer, Long> start = new HashMap<>();
        consumer.beginningOffsets(partitions, config.progressReadTimeout())
                .forEach((tp, offset) -> start.put(tp.partition(), offset));
        Map<Integer, Long> end = topics.committedEnds(partitions);
        OffsetSelection.Bounds selected = OffsetSelection.of(config).bound(start, end);
        Map<Integer, Long> range = config.untilOffsets().<Map<Integer, Long>>map(until ->
                UntilOffsets.bound(selected.start(), selected.end(), until)).orElse(selected.end());
        return ReplayProgress.started(config.replayId(), config.dlqTopic(), dlqTopicId, selected.start(), range,
                Instant.now());
    }

    /**
     * Assigns those of {@code partitions} that the range of {@code progress} holds and seeks them to its next offsets
     * ({@link #rewind}). A partition added to the topic after the range was captured lies outside it: a resumed
     * replay does not read it.
     */
    void open(List<TopicPartition> partitions, ReplayProgress progress) {
        consumer.assign(partitions.stream().filter(tp -> progress.endOffsets().containsKey(tp.partition())).toList());
        rewind(progress);
    }

    /** One poll: the records read that lie inside the range of {@code progress}. */
    List<ConsumerRecord<byte[], byte[]>> poll(ReplayProgress progress) {
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
            if (record.offset() < progress.endOffsets().get(record.partition())) {
                batch.add(record);
            }
        }
        return batch;
    }

    /** Per partition, the next offset to read, never past the end of the range. */
    Map<Integer, Long> positions(ReplayProgress progress) {
        Map<Integer, Long> next = new TreeMap<>();
        progress.endOffsets().forEach((partition, end) ->
                next.put(partition, Math.min(end, consumer.position(tp(partition)))));
        return next;
    }

    /** Seeks every partition to the committed next offset; pauses those whose range is read. */
    void rewind(ReplayProgress progress) {
        List<TopicPartition> done = new ArrayList<>();
        progress.nextOffsets().forEach((partition, offset) -> {
            consumer.seek(tp(partition), offset);
            if (offset >= progress.endOffsets().get(partition)) {
                done.add(tp(partition));
            }
        });
        consumer.resume(consumer.assignment());
        consumer.pause(done);
    }

    /** Seeks each partition of {@code records} (in the order read) back to its first one: read again next poll. */
    void readAgain(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<Integer, Long> first = new HashMap<>();
        records.forEach(record -> first.putIfAbsent(record.partition(), record.offset()));
        first.forEach((partition, offset) -> consumer.seek(tp(partition), offset));
    }

    @Override
    public void close() {
        consumer.close();
    }

    private TopicPartition tp(int partition) {
        return new TopicPartition(config.dlqTopic(), partition);
    }
}
