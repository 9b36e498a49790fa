package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.List;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;

import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * The narrow part of a partition's transactional producer that writing a batch uses: begin, send leaving poison out
 * ({@link TxnSendOption#IGNORE_SEND_ERRORS}), commit with the partition's progress record, abort, and the largest
 * record a dead letter may be. Tests build it over a {@code MockProducer} with {@link TxnSendProducer#wrap}.
 */
final class TargetProducer {

    private final TxnSendProducer<byte[], byte[]> producer;
    private final String transactionalId;

    TargetProducer(TxnSendProducer<byte[], byte[]> producer, String transactionalId) {
        this.producer = producer;
        this.transactionalId = transactionalId;
    }

    /** The transactional id, also the key of the partition's progress record. */
    String transactionalId() {
        return transactionalId;
    }

    void begin() {
        producer.beginTransaction();
    }

    /** Sends with IGNORE_SEND_ERRORS: a record the up-front checks reject reaches {@code callback} at once. */
    void send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        producer.send(record, callback, TxnSendOption.IGNORE_SEND_ERRORS);
    }

    /** The largest record (as the producer measures it) this producer sends to {@code topic}. */
    int maxRecordBytes(String topic) {
        return producer.maxRecordBytes(topic);
    }

    /**
     * Adds the progress record to the transaction and commits it. The record is sent as any producer sends
     * ({@link TxnSendOption#NONE}): it is never left out, so when it fails the commit fails, and with it the batch;
     * {@code callback} hears why.
     */
    void commit(ProducerRecord<byte[], byte[]> progress, Callback callback) {
        commit(List.of(progress), callback);
    }

    /** As {@link #commit(ProducerRecord, Callback)} with several records of the progress partition. */
    void commit(List<ProducerRecord<byte[], byte[]>> progress, Callback callback) {
        progress.forEach(record -> producer.send(record, callback, TxnSendOption.NONE));
        producer.commitTransaction();
    }

    /** Waits until every record sent is acknowledged or failed (see {@link RunningRedo#beforeAbort}). */
    void flush() {
        producer.flush();
    }

    void abort() {
        producer.abortTransaction();
    }

    void close(Duration timeout) {
        producer.close(timeout);
    }
}
