package dev.quarantine.benchmarks;

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TransactionAbortedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * (b) What users write today on a plain transactional KafkaProducer: send the batch with a callback per record and
 * commit; when a record fails (a later {@code send} or the commit throws), abort, drop the records whose callbacks
 * reported their own error, and replay the rest of the batch in a new transaction, until a commit succeeds.
 *
 * <p>Telling a failed record from its victims takes care: when the transaction fails, Kafka completes the callbacks
 * of records still waiting in its buffer with the very exception instance of the record that caused the failure.
 * So a record counts as failed only when its callback is the first to report an exception instance (and the error is
 * neither retriable nor a TransactionAbortedException); the others were aborted because of it and are replayed. A
 * record sent after the producer entered its error state is not sent at all, and several poison records failing in
 * one attempt all report the same instance (Kafka keeps one RecordTooLargeException for a MESSAGE_TOO_LARGE without
 * message), so this code drops one record per failed attempt: a batch with n poison records takes n + 1 attempts.
 * Each failed attempt costs the poison's round trip, the retries (after {@code retry.backoff.ms}) of the batches in
 * flight behind it, which the broker answers with OUT_OF_ORDER_SEQUENCE_NUMBER, and the abort.
 */
final class AbortAndReplayWriter implements TransactionWriter {

    private static final int MAX_ATTEMPTS = 1_000;

    private final Producer<byte[], byte[]> producer;
    private final Failures dropped = new Failures();
    private long transactions;

    AbortAndReplayWriter(Map<String, Object> configs) {
        producer = new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
    }

    @Override
    public void write(List<ProducerRecord<byte[], byte[]>> records) {
        Map<Integer, Exception> skip = new HashMap<>();
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            FailedRecords failed = new FailedRecords();
            if (tryOnce(records, skip.keySet(), failed)) {
                skip.values().forEach(dropped::add);
                return;
            }
            if (failed.errors().isEmpty()) {
                throw new IllegalStateException("the transaction failed but no record reported an error of its own");
            }
            skip.putAll(failed.errors());
        }
        throw new IllegalStateException("no commit after " + MAX_ATTEMPTS + " attempts");
    }

    /** One attempt: true when committed; false when aborted, with the records that failed in {@code failed}. */
    private boolean tryOnce(List<ProducerRecord<byte[], byte[]>> records, Set<Integer> skip, FailedRecords failed) {
        transactions++;
        producer.beginTransaction();
        try {
            for (int i = 0; i < records.size(); i++) {
                if (!skip.contains(i)) {
                    producer.send(records.get(i), failed.callbackFor(i));
                }
            }
            producer.commitTransaction();
            return true;
        } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException fatal) {
            throw fatal;
        } catch (KafkaException e) {
            producer.abortTransaction();
            return false;
        }
    }

    @Override
    public long transactionsBegun() {
        return transactions;
    }

    @Override
    public Failures failures() {
        return dropped;
    }

    @Override
    public void close() {
        producer.close();
    }

    /** Collects, from the callbacks of one attempt, the records that failed on their own. */
    private static final class FailedRecords {

        private final Set<Exception> reported = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Map<Integer, Exception> errors = new HashMap<>();

        Callback callbackFor(int index) {
            return (metadata, error) -> completed(index, error);
        }

        synchronized Map<Integer, Exception> errors() {
            return Map.copyOf(errors);
        }

        private synchronized void completed(int index, Exception error) {
            if (error != null && !(error instanceof RetriableException)
                    && !(error instanceof TransactionAbortedException) && reported.add(error)) {
                errors.put(index, error);
            }
        }
    }
}
