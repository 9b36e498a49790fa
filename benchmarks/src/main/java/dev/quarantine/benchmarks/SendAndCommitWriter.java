package dev.quarantine.benchmarks;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * One transaction per batch: every record sent once, then commit. The records whose callbacks report an error are
 * counted as failures. Two modes use it, differing only in the producer and the send:
 * <ul>
 *   <li>(a) {@link #ignoringSendErrors}: TxnSendProducer with {@link TxnSendOption#IGNORE_SEND_ERRORS}, poison
 *       records are left out (their callbacks get the error) and the transaction commits the rest;</li>
 *   <li>(c) {@link #plain}: the ceiling, a plain transactional KafkaProducer sending records that are all good.</li>
 * </ul>
 */
final class SendAndCommitWriter implements TransactionWriter {

    private final Producer<byte[], byte[]> producer;
    private final BiConsumer<ProducerRecord<byte[], byte[]>, Callback> send;
    private final Failures failed = new Failures();
    private final Callback countFailures = (metadata, error) -> {
        if (error != null) {
            failed.add(error);
        }
    };
    private long transactions;

    private SendAndCommitWriter(Producer<byte[], byte[]> producer,
                                BiConsumer<ProducerRecord<byte[], byte[]>, Callback> send) {
        this.producer = producer;
        this.send = send;
        producer.initTransactions();
    }

    /** (a) TxnSendProducer, each record sent with IGNORE_SEND_ERRORS. */
    static SendAndCommitWriter ignoringSendErrors(Map<String, Object> configs) {
        TxnSendProducer<byte[], byte[]> producer =
                new TxnSendProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
        return new SendAndCommitWriter(producer,
                (record, callback) -> producer.send(record, callback, TxnSendOption.IGNORE_SEND_ERRORS));
    }

    /** (c) A plain transactional KafkaProducer. */
    static SendAndCommitWriter plain(Map<String, Object> configs) {
        Producer<byte[], byte[]> producer =
                new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
        return new SendAndCommitWriter(producer, producer::send);
    }

    @Override
    public void write(List<ProducerRecord<byte[], byte[]>> records) {
        transactions++;
        producer.beginTransaction();
        for (ProducerRecord<byte[], byte[]> record : records) {
            send.accept(record, countFailures);
        }
        producer.commitTransaction();
    }

    @Override
    public long transactionsBegun() {
        return transactions;
    }

    @Override
    public Failures failures() {
        return failed;
    }

    @Override
    public void close() {
        producer.close();
    }
}
