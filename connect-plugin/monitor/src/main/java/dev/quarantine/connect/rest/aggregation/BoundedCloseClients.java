package dev.quarantine.connect.rest.aggregation;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The aggregation's Kafka clients, as Kafka Streams' own default supplier makes them, except that closing a producer
 * waits at most {@link #PRODUCER_CLOSE_TIMEOUT}, then drops what it has not sent. Kafka Streams closes a stream
 * thread's producer without a timeout, and a producer whose {@code commitTransaction} timed out never finishes
 * closing: the record of a {@code send} that threw "the previous call to {@code commitTransaction} timed out and must be
 * retried" stays in its buffer, for a partition outside any transaction, never sent (Kafka Streams' exactly-once
 * {@code delivery.timeout.ms} is unbounded). The stream thread that failed on it then held its tasks for ever, and the
 * thread that replaced it waited for them: the aggregation stopped ({@code MonitorCommitTimeoutIT}). What a forced
 * close drops belongs to a transaction that is aborted: the records after the last commit are read again.
 */
final class BoundedCloseClients implements KafkaClientSupplier {

    static final Duration PRODUCER_CLOSE_TIMEOUT = Duration.ofSeconds(10);

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return Admin.create(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new BoundedCloseProducer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return consumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return consumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return consumer(config);
    }

    private static Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A producer whose {@link #close()} (the one Kafka Streams calls) waits at most the bound. */
    static final class BoundedCloseProducer extends KafkaProducer<byte[], byte[]> {

        BoundedCloseProducer(Map<String, Object> config) {
            super(config, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public void close() {
            close(PRODUCER_CLOSE_TIMEOUT);
        }
    }
}
