package dev.quarantine.streams;

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
 * Kafka's clients as Kafka Streams' default supplier makes them, except that closing a producer waits at most
 * {@link #PRODUCER_CLOSE_TIMEOUT}, then drops what it has not sent; {@link IgnoreSendErrorsClientSupplier}'s
 * transactional producers close the same way.
 *
 * <p>Kafka Streams closes a stream thread's producer without a timeout. Under exactly-once, after a
 * {@code commitTransaction} that timed out (a coordinator slower than {@code max.block.ms}), Kafka Streams revives the
 * tasks and goes on with the same producer; its next {@code send} throws "the previous call to
 * {@code commitTransaction} timed out and must be retried", and can leave the record in the producer's buffer, for a
 * partition outside the transaction, never to be sent ({@code delivery.timeout.ms} is unbounded under exactly-once).
 * The stream thread dies on it; such a producer never finishes closing, the thread never ends, and its consumer, still
 * in the group, holds up the next rebalance for {@code max.poll.interval.ms}: the app stays RUNNING and processes
 * nothing of those tasks meanwhile ({@code CommitTimeoutIT}). A forced close sends nothing more, neither what it holds
 * nor an end of its transaction, which the coordinator aborts after {@code transaction.timeout.ms}: the records after
 * the last commit are processed again.
 */
public class BoundedCloseClientSupplier implements KafkaClientSupplier {

    /** How long closing a producer waits for what it has still to send. */
    public static final Duration PRODUCER_CLOSE_TIMEOUT = Duration.ofSeconds(10);

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return Admin.create(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()) {
            @Override
            public void close() {
                close(PRODUCER_CLOSE_TIMEOUT);
            }
        };
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
}
