package dev.quarantine.connect.sink.ownership;

/**
 * Opens the transactional producers of a task: a task slot ({@code <prefix>:task#<n>.<j>}), the offsets API's
 * {@code <prefix>:offsets#0}, or a short-lived producer of another id that completes a commit left open (design 2.7).
 * Real: a {@code TxnSendProducer} factory with the slot's settings; scripted: the model coordinator's producers.
 */
public interface SlotProducers {

    /** A producer of {@code transactionalId}, not yet initialised. */
    SlotProducer open(String transactionalId);
}
