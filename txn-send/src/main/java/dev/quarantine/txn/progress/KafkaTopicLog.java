package dev.quarantine.txn.progress;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
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
        this.consumer = new KafkaConsumer<>(ReadCommittedConsumers.configs(clientConfigs), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.admin = admin;
    }

    @Override
    public List<TopicPartition> partitionsFor(String topic, Duration timeout) {
        return consumer.partitionsFor(topic, timeout).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, IsolationLevel isolation,
                                                Duration timeout) {
        return PartitionOffsets.list(admin, partitions, OffsetSpec.latest(), isolation, timeout);
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
