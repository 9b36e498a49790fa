package dev.quarantine.replay;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.InvalidTxnStateException;

import dev.quarantine.txn.TxnSendProducer;

/**
 * A real KafkaProducer whose transaction number {@code lost} (counting from 1) stages what the coordinator answered
 * in CI: none of its sends reaches the broker, and its commit (ended by KafkaProducer without an EndTxn, since nothing
 * was sent, so the coordinator keeps the producer's previous commit as its last, complete, transaction at the current
 * epoch) is answered with the InvalidTxnStateException the coordinator returns for an EndTxn(COMMIT) in that state.
 * Every other call is KafkaProducer's own (the one-argument send, too, comes here through {@code send(record, null)}).
 */
final class LosingProducer extends KafkaProducer<byte[], byte[]> {

    private final int lost;
    private int transactions;

    private LosingProducer(Map<String, Object> configs, int lost) {
        super(configs);
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
    public void beginTransaction() {
        transactions++;
        super.beginTransaction();
    }

    @Override
    public void commitTransaction() {
        super.commitTransaction();
        if (losing()) {
            throw new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state.");
        }
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        return losing() ? new CompletableFuture<>() : super.send(record, callback);
    }
}
