package dev.quarantine.txn;

/**
 * What a {@link TxnSendProducer} does when one record of a transaction cannot be sent.
 */
public enum TxnSendOption {

    /**
     * Kafka's own behaviour: the send is handed to {@code KafkaProducer} as is. A record that fails inside a
     * transaction puts the producer into an abortable error state, so {@code commitTransaction()} fails and the
     * whole transaction must be aborted.
     */
    NONE,

    /**
     * Leave a record that cannot be sent out of the transaction instead of failing the transaction. The record is
     * checked before it enters a batch (serialization, size limits, topic and partition, the topic's
     * {@code max.message.bytes}, {@code cleanup.policy} and timestamp limits); if a check fails, the record is not
     * sent, its callback and future complete with the real exception, and the transaction stays healthy, so
     * {@code commitTransaction()} commits every other record. Only valid on a transactional producer between
     * {@code beginTransaction()} and {@code commitTransaction()}/{@code abortTransaction()}.
     */
    IGNORE_SEND_ERRORS
}
