package dev.quarantine.txn.progress;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The real {@link TopicLog}: a read_committed consumer without a group (assigned, never committing), and the
 * caller's admin client for end offsets (not closed here: its owner closes it).
 */
final class KafkaTopicLog implements TopicLog {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Admin admin;

    KafkaTopicLog(Map<String, Object> clientConfigs, Admin admin) {
        this.consumer = new KafkaConsumer<>(consumerConfigs(clientConfigs), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.admin = admin;
    }

    /** {@code clientConfigs}' consumer settings, read_committed, without a group, never creating a topic. */
    static Map<String, Object> consumerConfigs(Map<String, Object> clientConfigs) {
        Map<String, Object> configs = new HashMap<>(clientConfigs);
        configs.keySet().retainAll(ConsumerConfig.configNames());
        configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        configs.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        configs.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        configs.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return configs;
    }

    @Override
    public List<TopicPartition> partitionsFor(String topic, Duration timeout) {
        return consumer.partitionsFor(topic, timeout).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, IsolationLevel isolation,
                                                Duration timeout) {
        Map<TopicPartition, OffsetSpec> latest = partitions.stream()
                .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
        try {
            return admin.listOffsets(latest, new ListOffsetsOptions(isolation)).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException("Interrupted while finding the end of " + partitions, e);
        } catch (java.util.concurrent.TimeoutException e) { // the future's, not Kafka's
            throw new TimeoutException("Could not find the end of " + partitions + " within " + timeout.toMillis()
                    + " ms", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KafkaException cause) {
                throw cause;
            }
            throw new KafkaException("Could not find the end of " + partitions, e.getCause());
        }
    }

    @Override
    public void readFromBeginning(Collection<TopicPartition> partitions) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        return consumer.position(partition, timeout);
    }

    @Override
    public Iterable<ConsumerRecord<byte[], byte[]>> poll(Duration timeout) {
        return consumer.poll(timeout);
    }

    @Override
    public void close() {
        consumer.close(CLOSE_TIMEOUT);
    }
}
