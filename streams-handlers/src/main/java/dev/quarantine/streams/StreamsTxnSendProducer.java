package dev.quarantine.streams;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.txn.DeadLetterBreaker;
import dev.quarantine.txn.ErrorClassMetrics;
import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * The supplier's producer: a TxnSendProducer that never leaves a record to one of the app's internal topics out of
 * a transaction (such a record goes straight to Kafka's producer, so a failure dooms the transaction as in stock
 * Kafka), counts the outputs written for the breaker, and shows the app's dead-letter counts in its metrics.
 *
 * <p>Kafka Streams configures the handler and the supplier separately, so the handler finds the producer that sent
 * a failing record by its {@code client.id} in a registry of the live producers: a handler runs either on the stream
 * thread, whose producer Kafka Streams names {@code <thread name>-producer}, or in a send callback on the producer's
 * network thread, named {@code kafka-producer-network-thread | <client.id>}.
 */
final class StreamsTxnSendProducer extends TxnSendProducer<byte[], byte[]> {

    private static final Map<String, StreamsTxnSendProducer> BY_CLIENT_ID = new ConcurrentHashMap<>();
    private static final String NETWORK_THREAD_PREFIX = KafkaProducer.NETWORK_THREAD_PREFIX + " | ";
    private static final String STREAMS_PRODUCER_SUFFIX = "-producer";

    private final ErrorClassMetrics deadLetterMetrics;
    private final StreamsTopics topics;
    private final DeadLetterBreaker breaker;
    private final String clientId;

    StreamsTxnSendProducer(Map<String, Object> configs, ErrorClassMetrics deadLetterMetrics, StreamsTopics topics,
                           DeadLetterBreaker breaker) {
        super(configs, new ByteArraySerializer(), new ByteArraySerializer());
        this.deadLetterMetrics = deadLetterMetrics;
        this.topics = topics;
        this.breaker = breaker;
        Object id = configs.get(ProducerConfig.CLIENT_ID_CONFIG);
        this.clientId = id == null ? null : id.toString();
        if (clientId != null) {
            BY_CLIENT_ID.put(clientId, this);
        }
    }

    /** The live producer of the stream thread or producer network thread running this, if it is one of ours. */
    static Optional<StreamsTxnSendProducer> ofCurrentThread() {
        String thread = Thread.currentThread().getName();
        String clientId = thread.startsWith(NETWORK_THREAD_PREFIX) ? thread.substring(NETWORK_THREAD_PREFIX.length())
                : thread + STREAMS_PRODUCER_SUFFIX;
        return Optional.ofNullable(BY_CLIENT_ID.get(clientId));
    }

    /**
     * Sends {@code record} as TxnSendProducer does, except that a record to an internal topic is always sent with
     * {@link TxnSendOption#NONE}: leaving a changelog or repartition record out would commit state or data the app
     * cannot read back.
     */
    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback,
                                       TxnSendOption option) {
        TopicKind kind = topics.kind(record.topic());
        if (kind.isInternal()) {
            return super.send(record, callback, TxnSendOption.NONE);
        }
        return super.send(record, kind == TopicKind.OUTPUT ? counting(callback) : callback, option);
    }

    DeadLetterBreaker breaker() {
        return breaker;
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(super.metrics());
        all.putAll(deadLetterMetrics.metrics());
        return all;
    }

    @Override
    public void close(Duration timeout) {
        if (clientId != null) {
            BY_CLIENT_ID.remove(clientId, this);
        }
        super.close(timeout);
    }

    private Callback counting(Callback callback) {
        return (metadata, error) -> {
            if (error == null) {
                breaker.written();
            }
            if (callback != null) {
                callback.onCompletion(metadata, error);
            }
        };
    }
}
