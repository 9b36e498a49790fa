package dev.quarantine.connect.sink.write;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.progress.ProgressRecord;

/**
 * Where a task's progress records go: {@code partition}, partition 0 of the progress topic, each under its source
 * partition's key {@code <prefix>:<topic>-<partition>} ({@link WriterFactory#transactionalId}, design 2.1).
 */
record ProgressKeys(TopicPartition partition, String prefix) {

    String topic() {
        return partition.topic();
    }

    ProducerRecord<byte[], byte[]> record(ProgressRecord progress, TopicPartition source) {
        return progress.toRecord(partition, WriterFactory.transactionalId(prefix, source), source);
    }
}
