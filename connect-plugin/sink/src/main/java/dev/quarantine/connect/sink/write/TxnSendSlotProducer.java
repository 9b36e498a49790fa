package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.errors.TimeoutException;

import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.ownership.ProducerEpoch;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.txn.SendErrors;
import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * The real {@link SlotProducer}: a slot's {@link TxnSendProducer}, each call's exception turned into the answer that
 * says how it ended, once, here:
 *
 * <table>
 * <caption>From exception to answer</caption>
 * <tr><th>exception</th><th>init</th><th>send</th><th>commit, abort</th></tr>
 * <tr><td>none</td><td>Done (producer id and epoch as described right after)</td><td>Accepted; Skipped when
 *     IGNORE_SEND_ERRORS left the record out (its callback ran at once with the error)</td><td>Done</td></tr>
 * <tr><td>fencing ({@link SendErrors#isFencing})</td><td>Fenced</td><td>Failed</td><td>Fenced</td></tr>
 * <tr><td>TimeoutException, InterruptException</td><td>Transient</td><td>Failed</td><td>MaybeDone: the request may
 *     have reached the coordinator</td></tr>
 * <tr><td>another transient one ({@link SendErrors#isTransient})</td><td>Transient</td><td>Failed</td>
 *     <td>Transient</td></tr>
 * <tr><td>anything else</td><td>Fatal</td><td>Failed</td><td>{@link FailureAction} FATAL: Fatal; otherwise
 *     Transient (an abortable error state: abort, then write again)</td></tr>
 * </table>
 *
 * <p>Kafka's producer does not tell its producer id and epoch, so {@code init} asks {@code describeEpoch} (in
 * production {@code Admin.describeTransactions} of the id) right after {@code initTransactions}; a failure there is
 * Transient. Kafka's InterruptException sets the thread's interrupt flag again when it is made, so it stays set.
 */
public final class TxnSendSlotProducer implements SlotProducer {

    /** The epoch of an id the coordinator does not know. */
    static final ProducerEpoch UNKNOWN = new ProducerEpoch(-1, (short) -1);

    private final TxnSendProducer<byte[], byte[]> producer;
    private final String transactionalId;
    private final Function<String, ProducerEpoch> describeEpoch;

    TxnSendSlotProducer(TxnSendProducer<byte[], byte[]> producer, String transactionalId,
                        Function<String, ProducerEpoch> describeEpoch) {
        this.producer = producer;
        this.transactionalId = transactionalId;
        this.describeEpoch = describeEpoch;
    }

    @Override
    public Init init() {
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            if (SendErrors.isFencing(e)) {
                return new Init.Fenced(e);
            }
            return isTransient(e) ? new Init.Transient(e) : new Init.Fatal(e);
        }
        try {
            return new Init.Done(describeEpoch.apply(transactionalId));
        } catch (RuntimeException e) {
            return new Init.Transient(e);
        }
    }

    @Override
    public void begin() {
        producer.beginTransaction();
    }

    @Override
    public Sent send(ProducerRecord<byte[], byte[]> record, TxnSendOption option) {
        AtomicReference<Exception> leftOut = new AtomicReference<>();
        Future<RecordMetadata> metadata;
        try {
            metadata = producer.send(record, (m, e) -> leftOut.compareAndSet(null, e), option);
        } catch (RuntimeException e) {
            return new Sent.Failed(e);
        }
        Exception error = leftOut.get();
        if (option == TxnSendOption.IGNORE_SEND_ERRORS && error != null) {
            return new Sent.Skipped(error);
        }
        return new Sent.Accepted(metadata);
    }

    @Override
    public void prepare(Set<String> topics) {
        producer.prepareTopics(topics, ConfigRules.PREPARE_BOUND);
    }

    @Override
    public void flush() {
        producer.flush();
    }

    @Override
    public End commit() {
        try {
            producer.commitTransaction();
            return new End.Done();
        } catch (RuntimeException e) {
            return ended(e);
        }
    }

    @Override
    public End abort() {
        try {
            producer.abortTransaction();
            return new End.Done();
        } catch (RuntimeException e) {
            return ended(e);
        }
    }

    /** The largest record this producer sends to {@code topic} ({@link TxnSendProducer#maxRecordBytes}). */
    int maxRecordBytes(String topic) {
        return producer.maxRecordBytes(topic);
    }

    /**
     * The producer id and epoch of a transactional id as the coordinator describes it
     * ({@code Admin.describeTransactions}), within {@code timeout}: what {@link #init} answers after
     * {@code initTransactions}.
     */
    public static Function<String, ProducerEpoch> describedBy(Admin admin, Duration timeout) {
        return transactionalId -> {
            try {
                TransactionDescription description = admin.describeTransactions(List.of(transactionalId))
                        .description(transactionalId).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                return new ProducerEpoch(description.producerId(), (short) description.producerEpoch());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptException(e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TransactionalIdNotFoundException) {
                    return UNKNOWN; // not described (a producer that never reached a coordinator); nothing reads it yet
                }
                throw e.getCause() instanceof KafkaException k ? k : new KafkaException(e.getCause());
            } catch (java.util.concurrent.TimeoutException e) {
                throw new TimeoutException("describeTransactions of " + transactionalId + " did not answer within "
                        + timeout.toMillis() + " ms", e);
            }
        };
    }

    @Override
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    private static End ended(RuntimeException e) {
        if (SendErrors.isFencing(e)) {
            return new End.Fenced(e);
        }
        if (e instanceof TimeoutException || e instanceof InterruptException) {
            return new End.MaybeDone(e);
        }
        if (SendErrors.isTransient(e) || FailureAction.of(e) != FailureAction.FATAL) {
            return new End.Transient(e);
        }
        return new End.Fatal(e);
    }

    private static boolean isTransient(RuntimeException e) {
        return e instanceof TimeoutException || e instanceof InterruptException || SendErrors.isTransient(e);
    }
}
