package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.ProducerRecord;

import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.txn.TxnSendOption;

/**
 * A slot's {@link SlotProducer} that is a new Kafka producer at every {@link #init}: a producer that was fenced, or
 * whose transaction ended in an unknown state, is in a fatal error state and cannot initialise again, so the slot's
 * re-initialisation (design 2.5) closes it and opens the next one of the same id (sized again for the partitions the
 * slot writes now).
 */
final class ProducerPerInit implements SlotProducer {

    private static final Duration CLOSE_PREVIOUS = Duration.ZERO;

    private final Supplier<TxnSendSlotProducer> open;
    private TxnSendSlotProducer current;

    ProducerPerInit(Supplier<TxnSendSlotProducer> open) {
        this.open = open;
    }

    @Override
    public Init init() {
        if (current != null) {
            current.close(CLOSE_PREVIOUS);
        }
        current = open.get();
        return current.init();
    }

    /** The producer of the slot's current epoch; none before the first init. */
    TxnSendSlotProducer current() {
        if (current == null) {
            throw new IllegalStateException("the slot's producer was not initialised");
        }
        return current;
    }

    @Override
    public void begin() {
        current().begin();
    }

    @Override
    public Sent send(ProducerRecord<byte[], byte[]> record, TxnSendOption option) {
        return current().send(record, option);
    }

    @Override
    public void prepare(Set<String> topics) {
        current().prepare(topics);
    }

    @Override
    public void flush() {
        current().flush();
    }

    @Override
    public End commit() {
        return current().commit();
    }

    @Override
    public End abort() {
        return current().abort();
    }

    @Override
    public void close(Duration timeout) {
        if (current != null) {
            current.close(timeout);
        }
    }
}
