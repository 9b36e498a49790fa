package dev.quarantine.connect.sink.write;

import org.apache.kafka.common.KafkaException;

import dev.quarantine.txn.SendErrors;

/**
 * What a failed send or transaction means for the batch, decided by {@link SendErrors}:
 *
 * <table>
 * <caption>From send error to action</caption>
 * <tr><th>error (anywhere in the cause chain for fencing)</th><th>action</th></tr>
 * <tr><td>ProducerFencedException, InvalidProducerEpochException, InvalidTxnStateException,
 *     InvalidPidMappingException ({@link SendErrors#isFencing})</td><td>FENCED: re-establish the partition</td></tr>
 * <tr><td>SendErrors RECORD</td><td>POISON: dead-letter the record</td></tr>
 * <tr><td>SendErrors RETRIABLE or ABORTABLE</td><td>RETRY: abort, write the batch again</td></tr>
 * <tr><td>a plain KafkaException without a cause (what the other records of a produce batch get when one of them
 *     was invalid)</td><td>RETRY: collateral damage, judged by the record that caused it</td></tr>
 * <tr><td>SendErrors FATAL (authorization, unsupported version, ...)</td><td>FATAL: abort, fail the task</td></tr>
 * </table>
 *
 * <p>A plain {@link KafkaException} with a cause (the transaction manager's "error state", which wraps the error that
 * put it there) is judged by its cause.
 */
public enum FailureAction {
    POISON, RETRY, FENCED, FATAL;

    public static FailureAction of(Throwable error) {
        if (SendErrors.isFencing(error)) {
            return FENCED;
        }
        Throwable e = SendErrors.unwrap(error);
        while (e.getClass() == KafkaException.class && e.getCause() != null) {
            e = SendErrors.unwrap(e.getCause());
        }
        if (e.getClass() == KafkaException.class) {
            return RETRY;
        }
        return switch (SendErrors.classify(e)) {
            case RECORD -> POISON;
            case RETRIABLE, ABORTABLE -> RETRY;
            case FATAL -> FATAL;
        };
    }
}
