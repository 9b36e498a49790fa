package dev.quarantine.benchmarks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.LocalKafka;

/**
 * The topics of one {@link SinkScaleRun} size and what is written to them: input topics of 8 partitions each, their
 * target topics (which reject the poison's old timestamps: {@code message.timestamp.before.max.ms} of an hour), the
 * dead-letter topic; {@code records} of 1 KiB spread evenly over the input partitions, every 100th two days old.
 */
final class SinkScaleTopics {

    /** Partitions per input topic: 8, or {@code -Dscale.topic.partitions} (2000 puts 2,000 partitions in one topic). */
    static final int TOPIC_PARTITIONS = Integer.getInteger("scale.topic.partitions", 8);
    static final int RECORD_BYTES = 1024;
    private static final int POISON_EVERY = 100;

    private final LocalKafka kafka;
    private final String name;
    private final int partitions;
    private final List<String> inputs = new ArrayList<>();
    private final List<TopicPartition> targets = new ArrayList<>();

    SinkScaleTopics(LocalKafka kafka, String name, int partitions) {
        this.kafka = kafka;
        this.name = name;
        this.partitions = partitions;
        for (int i = 0; i * TOPIC_PARTITIONS < partitions; i++) {
            inputs.add(name + "-in" + i);
        }
    }

    List<String> inputs() {
        return inputs;
    }

    List<TopicPartition> targets() {
        return targets;
    }

    String deadLetterTopic() {
        return name + "-dlq";
    }

    /** Creates the input, target and dead-letter topics. */
    SinkScaleTopics create() {
        List<NewTopic> topics = new ArrayList<>();
        Map<String, String> window = Map.of("message.timestamp.before.max.ms",
                String.valueOf(SinkVsMirrorMakerMode.SINK_TIMESTAMP_WINDOW_MS));
        for (int i = 0; i < inputs.size(); i++) {
            int count = Math.min(TOPIC_PARTITIONS, partitions - i * TOPIC_PARTITIONS);
            String target = name + "." + inputs.get(i);
            topics.add(new NewTopic(inputs.get(i), count, (short) 1));
            topics.add(new NewTopic(target, count, (short) 1).configs(window));
            for (int p = 0; p < count; p++) {
                targets.add(new TopicPartition(target, p));
            }
        }
        topics.add(new NewTopic(deadLetterTopic(), 1, (short) 1));
        try (Admin admin = kafka.admin()) {
            admin.createTopics(topics).all().get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not create the topics of " + name, e);
        }
        return this;
    }

    /**
     * Writes {@code records} spread evenly over every input partition, every 100th two days old; returns how many
     * records each target partition and the dead-letter topic should end with.
     */
    Map<TopicPartition, Long> produce(int records) {
        produce(records, true);
        Map<TopicPartition, Long> expected = new HashMap<>();
        for (int i = 0; i < records; i++) {
            TopicPartition target = isPoison(i) ? new TopicPartition(deadLetterTopic(), 0) : target(i % partitions);
            expected.merge(target, 1L, Long::sum);
        }
        return expected;
    }

    /** Writes one more record, not poison, to every input partition; adds them to {@code expected}. */
    void produceOnePerPartition(Map<TopicPartition, Long> expected) {
        produce(partitions, false);
        for (int partition = 0; partition < partitions; partition++) {
            expected.merge(target(partition), 1L, Long::sum);
        }
    }

    /** Deletes every topic of this size. */
    void delete() {
        List<String> topics = new ArrayList<>(inputs);
        targets.stream().map(TopicPartition::topic).distinct().forEach(topics::add);
        topics.add(deadLetterTopic());
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(topics).all().get(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting the topics of " + name, e);
        } catch (Exception e) {
            throw new IllegalStateException("could not delete the topics of " + name, e);
        }
    }

    private TopicPartition target(int partition) {
        return new TopicPartition(name + "." + inputs.get(partition / TOPIC_PARTITIONS), partition % TOPIC_PARTITIONS);
    }

    private static boolean isPoison(int record) {
        return record % POISON_EVERY == POISON_EVERY - 1;
    }

    private void produce(int records, boolean poison) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024);
        // a loaded machine: no request times out and is sent again, no input is lost (failures are thrown below)
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 300_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 600_000);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        Random random = new Random(42);
        long old = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(2);
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < records; i++) {
                int partition = i % partitions;
                byte[] value = new byte[RECORD_BYTES];
                random.nextBytes(value);
                Long timestamp = poison && isPoison(i) ? old : null;
                producer.send(new ProducerRecord<>(inputs.get(partition / TOPIC_PARTITIONS),
                        partition % TOPIC_PARTITIONS, timestamp, String.valueOf(i).getBytes(), value),
                        (metadata, e) -> {
                            if (e != null) {
                                failed.compareAndSet(null, e);
                            }
                        });
            }
            producer.flush();
        }
        if (failed.get() != null) {
            throw new IllegalStateException("could not write the input of " + inputs, failed.get());
        }
    }
}
