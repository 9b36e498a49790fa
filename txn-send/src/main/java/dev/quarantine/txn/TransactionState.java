package dev.quarantine.txn;

import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * What {@link TxnSendOption#IGNORE_SEND_ERRORS} needs of its producer: that it is open, transactional, and within a
 * transaction. Leaving a record out only makes sense in a transaction that commits the others; outside one, a send
 * error is the caller's to see. The producer reports each step here: {@link #begun} and
 * {@link #ended} after the wrapped producer took it, {@link #closed} before it closes the wrapped one.
 */
final class TransactionState {

    private final boolean transactional;
    private volatile boolean inTransaction;
    private volatile boolean closed;

    /** @param transactional whether the producer has a {@code transactional.id} */
    TransactionState(boolean transactional) {
        this.transactional = transactional;
    }

    /** After {@code beginTransaction()} returned. */
    void begun() {
        inTransaction = true;
    }

    /** After {@code commitTransaction()} or {@code abortTransaction()} returned. */
    void ended() {
        inTransaction = false;
    }

    /** When {@code close} is called, before the wrapped producer closes. */
    void closed() {
        closed = true;
    }

    /**
     * Passes when a send with IGNORE_SEND_ERRORS may go ahead; otherwise throws an {@link IllegalStateException}
     * naming what is missing: an open producer, a {@code transactional.id}, a transaction in progress (checked in
     * that order).
     */
    void requireInProgress() {
        if (closed) {
            throw new IllegalStateException("Cannot send after the producer has been closed");
        }
        if (!transactional) {
            throw new IllegalStateException("IGNORE_SEND_ERRORS needs a transactional producer: set "
                    + ProducerConfig.TRANSACTIONAL_ID_CONFIG + ", or send with TxnSendOption.NONE");
        }
        if (!inTransaction) {
            throw new IllegalStateException("IGNORE_SEND_ERRORS needs a transaction in progress: call"
                    + " beginTransaction() before sending");
        }
    }
}
