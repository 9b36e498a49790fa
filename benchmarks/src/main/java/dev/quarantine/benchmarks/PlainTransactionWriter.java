package dev.quarantine.benchmarks;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** (c) The ceiling: a plain transactional KafkaProducer sending records that are all good. */
final class PlainTransactionWriter implements TransactionWriter {

    private final Producer<byte[], byte[]> producer;
    private final Failures failed = new Failures();
    private final Callback countFailures = (metadata, error) -> {
        if (error != null) {
            failed.add(error);
        }
    };
    private long transactions;

    PlainTransactionWriter(Map<String, Object> configs) {
        producer = new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
    }

    @Override
    public void write(List<ProducerRecord<byte[], byte[]>> records) {
        transactions++;
        producer.beginTransaction();
        for (ProducerRecord<byte[], byte[]> record : records) {
            producer.send(record, countFailures);
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
