package dev.quarantine.connect.rest.aggregation;

import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer interceptor the aggregation's Streams consumer loads (by class name, so each subclass is public with a
 * no-arg constructor) that acts on {@code onConsume} only: commit, close and configure do nothing.
 */
abstract class ConsumeOnlyInterceptor implements ConsumerInterceptor<byte[], byte[]> {

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }
}
