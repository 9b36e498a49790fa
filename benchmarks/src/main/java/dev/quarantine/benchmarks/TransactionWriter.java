package dev.quarantine.benchmarks;

import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;

/** One way of writing a batch of records in a transaction, with one producer kept open across batches. */
interface TransactionWriter extends AutoCloseable {

    /** Writes {@code records} in a transaction and returns once it is committed (possibly after retries). */
    void write(List<ProducerRecord<byte[], byte[]>> records);

    /** Transactions begun so far, committed or aborted. */
    long transactionsBegun();

    /** Records so far that were not committed because they failed (left out, or dropped from a replay). */
    Failures failures();

    @Override
    void close();
}
