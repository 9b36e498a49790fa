package dev.quarantine.streams;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * The supplier's producer: a TxnSendProducer that never leaves a record to one of the app's internal topics out of
 * a transaction (such a record goes straight to Kafka's producer, so a failure dooms the transaction as in stock
 * Kafka), counts the outputs written for the app's breaker, and shows the app's dead-letter counts in its metrics.
 * It is one of its app's {@link AppDeadLetters} producers from construction to close, which is how the app's
 * handlers read the limits a dead letter must fit.
 */
final class StreamsTxnSendProducer extends TxnSendProducer<byte[], byte[]> {

    private final AppDeadLetters app;

    StreamsTxnSendProducer(Map<String, Object> configs, AppDeadLetters app) {
        super(configs, new ByteArraySerializer(), new ByteArraySerializer());
        this.app = app;
        app.opened(this);
    }

    /**
     * Sends {@code record} as TxnSendProducer does, except that a record to an internal topic is always sent with
     * {@link TxnSendOption#NONE}: leaving a changelog or repartition record out would commit state or data the app
     * cannot read back.
     */
    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback,
                                       TxnSendOption option) {
        TopicKind kind = app.topics().kind(record.topic());
        if (kind.isInternal()) {
            return super.send(record, callback, TxnSendOption.NONE);
        }
        return super.send(record, kind == TopicKind.OUTPUT ? counting(callback) : callback, option);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(super.metrics());
        all.putAll(app.metrics().metrics());
        return all;
    }

    /** What Kafka Streams calls: waits at most {@link BoundedCloseClientSupplier#PRODUCER_CLOSE_TIMEOUT} (its why). */
    @Override
    public void close() {
        close(BoundedCloseClientSupplier.PRODUCER_CLOSE_TIMEOUT);
    }

    @Override
    public void close(Duration timeout) {
        app.closed(this);
        super.close(timeout);
    }

    private Callback counting(Callback callback) {
        return (metadata, error) -> {
            if (error == null) {
                app.outputCounter().written();
            }
            if (callback != null) {
                callback.onCompletion(metadata, error);
            }
        };
    }
}
