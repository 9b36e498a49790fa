package dev.quarantine.replay;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.metrics.KafkaMetric;

import dev.quarantine.txn.TxnSendProducer;

/**
 * A real KafkaProducer whose transaction number {@code lost} (counting from 1) stages what the coordinator answered
 * in CI: none of its sends reaches the broker, and its commit (ended by KafkaProducer without an EndTxn, since nothing
 * was sent, so the coordinator keeps the producer's previous commit as its last, complete, transaction at the current
 * epoch) is answered with the InvalidTxnStateException the coordinator returns for an EndTxn(COMMIT) in that state.
 * Every other call goes to the KafkaProducer as it is.
 */
final class LosingProducer implements Producer<byte[], byte[]> {

    private final KafkaProducer<byte[], byte[]> delegate;
    private final int lost;
    private int transactions;

    private LosingProducer(Map<String, Object> configs, int lost) {
        this.delegate = new KafkaProducer<>(configs);
        this.lost = lost;
    }

    /** A producer for a replay, built from its {@code configs}, that loses its transaction number {@code lost}. */
    static TxnSendProducer<byte[], byte[]> losing(Map<String, Object> configs, int lost) {
        return TxnSendProducer.wrap(new LosingProducer(configs, lost), configs);
    }

    private boolean losing() {
        return transactions == lost;
    }

    @Override
    public void initTransactions() {
        delegate.initTransactions();
    }

    @Override
    public void beginTransaction() {
        transactions++;
        delegate.beginTransaction();
    }

    @Override
    public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets,
                                         ConsumerGroupMetadata groupMetadata) {
        delegate.sendOffsetsToTransaction(offsets, groupMetadata);
    }

    @Override
    public void commitTransaction() {
        delegate.commitTransaction();
        if (losing()) {
            throw new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state.");
        }
    }

    @Override
    public void abortTransaction() {
        delegate.abortTransaction();
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        delegate.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        delegate.unregisterMetricFromSubscription(metric);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        return losing() ? new CompletableFuture<>() : delegate.send(record, callback);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return delegate.partitionsFor(topic);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return delegate.metrics();
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate.clientInstanceId(timeout);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public void close(Duration timeout) {
        delegate.close(timeout);
    }
}
