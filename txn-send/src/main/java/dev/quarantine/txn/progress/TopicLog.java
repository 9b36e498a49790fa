package dev.quarantine.txn.progress;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * What {@link CompactedTopicReader} needs of the cluster: a read_committed consumer without a group, and the end
 * offsets of partitions. The seam a fake stands in for in unit tests; {@link KafkaTopicLog} is the real one.
 */
interface TopicLog extends AutoCloseable {

    /** The partitions of {@code topic}; none when it does not exist. */
    List<TopicPartition> partitionsFor(String topic, Duration timeout);

    /** The latest offsets of {@code partitions} as a reader with {@code isolation} sees them now. */
    Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, IsolationLevel isolation,
                                         Duration timeout);

    /** Reads {@code partitions} (only them) from their first offset on. */
    void readFromBeginning(Collection<TopicPartition> partitions);

    /** The offset the next record read of {@code partition} will have (past aborted records and markers). */
    long position(TopicPartition partition, Duration timeout);

    /** The next records, read_committed, in offset order per partition. */
    Iterable<ConsumerRecord<byte[], byte[]>> poll(Duration timeout);

    @Override
    void close();
}
