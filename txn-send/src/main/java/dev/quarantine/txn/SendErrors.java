package dev.quarantine.txn;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.TransactionAbortedException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * The one place that decides what a send exception means. Callers classify once, where they catch.
 *
 * <table>
 * <caption>How send exceptions are classified</caption>
 * <tr><th>exception</th><th>category</th></tr>
 * <tr><td>RecordTooLargeException, RecordBatchTooLargeException, SerializationException, ClassCastException
 *     (a serializer given the wrong type), InvalidTopicException, UnknownTopicOrPartitionException,
 *     InvalidRecordException, InvalidTimestampException</td><td>RECORD</td></tr>
 * <tr><td>ProducerFencedException, InvalidProducerEpochException, InvalidPidMappingException,
 *     OutOfOrderSequenceException, AuthenticationException, AuthorizationException, UnsupportedVersionException, IllegalStateException,
 *     a failure of a record that is itself a dead letter (see {@link #classify(ProducerRecord, Throwable)})</td>
 *     <td>FATAL</td></tr>
 * <tr><td>TransactionAbortableException, TransactionAbortedException (a record of an aborted transaction)</td>
 *     <td>ABORTABLE</td></tr>
 * <tr><td>any other RetriableException (TimeoutException, NotEnoughReplicasException, ...)</td>
 *     <td>RETRIABLE</td></tr>
 * <tr><td>anything else</td><td>FATAL</td></tr>
 * </table>
 *
 * <p>UnknownTopicOrPartitionException is a RetriableException in Kafka, but by the time it reaches a callback the
 * producer (or {@link TxnSendProducer}'s up-front check) has already waited for the topic, so retrying the same
 * record does not help: it is RECORD here.
 */
public final class SendErrors {

    private SendErrors() {
    }

    /** The category of a send exception; wrappers (ExecutionException, CompletionException) are looked through. */
    public static SendErrorCategory classify(Throwable error) {
        Throwable e = unwrap(error);
        if (e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException
                || e instanceof SerializationException || e instanceof ClassCastException
                || e instanceof InvalidTopicException || e instanceof UnknownTopicOrPartitionException
                || e instanceof InvalidRecordException || e instanceof InvalidTimestampException) {
            return SendErrorCategory.RECORD;
        }
        if (e instanceof ProducerFencedException || e instanceof InvalidProducerEpochException
                || e instanceof InvalidPidMappingException || e instanceof OutOfOrderSequenceException || e instanceof AuthenticationException
                || e instanceof AuthorizationException || e instanceof UnsupportedVersionException
                || e instanceof IllegalStateException) {
            return SendErrorCategory.FATAL;
        }
        if (e instanceof TransactionAbortableException || e instanceof TransactionAbortedException) {
            return SendErrorCategory.ABORTABLE;
        }
        if (e instanceof RetriableException) {
            return SendErrorCategory.RETRIABLE;
        }
        return SendErrorCategory.FATAL;
    }

    /**
     * Like {@link #classify(Throwable)}, but a failure of a dead-letter record (one built by
     * {@link DeadLetterRecordBuilder}) that would be RECORD is FATAL: a dead letter that cannot be written is never
     * fed back into the dead-letter path.
     */
    public static SendErrorCategory classify(ProducerRecord<?, ?> record, Throwable error) {
        SendErrorCategory category = classify(error);
        if (category == SendErrorCategory.RECORD && DeadLetterHeaders.isDeadLetter(record.headers())) {
            return SendErrorCategory.FATAL;
        }
        return category;
    }

    /**
     * Whether {@code error} or one of its causes says the producer lost its transaction to someone else:
     * ProducerFencedException, InvalidProducerEpochException, InvalidTxnStateException (the broker's transaction
     * verification rejects a produce whose transaction the coordinator already ended, after a fence or a timeout), or
     * InvalidPidMappingException (the coordinator no longer knows the transactional id's producer id: it expired
     * after {@code transactional.id.expiration.ms} idle, or another instance took it over; Kafka Streams'
     * {@code RecordCollectorImpl} and {@code StreamsProducer} treat it as fencing too). The producer cannot go on; a
     * new one, after {@code initTransactions()}, can.
     */
    public static boolean isFencing(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (e instanceof ProducerFencedException || e instanceof InvalidProducerEpochException
                    || e instanceof InvalidTxnStateException || e instanceof InvalidPidMappingException) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code error} or one of its causes is RETRIABLE (see the table): a transient failure. */
    public static boolean isTransient(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (classify(e) == SendErrorCategory.RETRIABLE) {
                return true;
            }
        }
        return false;
    }

    /** The exception inside ExecutionException / CompletionException wrappers. */
    public static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof ExecutionException || e instanceof CompletionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
