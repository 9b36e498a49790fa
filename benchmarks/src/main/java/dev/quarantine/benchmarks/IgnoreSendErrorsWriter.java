package dev.quarantine.benchmarks;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * (a) TxnSendProducer with {@link TxnSendOption#IGNORE_SEND_ERRORS}: one transaction per batch, poison records are
 * left out (their callbacks get the error) and the transaction commits the rest.
 */
final class IgnoreSendErrorsWriter implements TransactionWriter {

    private final TxnSendProducer<byte[], byte[]> producer;
    private final Failures leftOut = new Failures();
    private final Callback countLeftOut = (metadata, error) -> {
        if (error != null) {
            leftOut.add(error);
        }
    };
    private long transactions;

    IgnoreSendErrorsWriter(Map<String, Object> configs) {
        producer = new TxnSendProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
    }

    @Override
    public void write(List<ProducerRecord<byte[], byte[]>> records) {
        transactions++;
        producer.beginTransaction();
        for (ProducerRecord<byte[], byte[]> record : records) {
            producer.send(record, countLeftOut, TxnSendOption.IGNORE_SEND_ERRORS);
        }
        producer.commitTransaction();
    }

    @Override
    public long transactionsBegun() {
        return transactions;
    }

    @Override
    public Failures failures() {
        return leftOut;
    }

    @Override
    public void close() {
        producer.close();
    }
}
