package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

import dev.quarantine.txn.TxnSendOption;

/**
 * One transactional producer of a slot. Every call that can end in several ways answers with a value that says which
 * (STYLE "Flow"), so the caller decides once and a script can give any answer at any step.
 */
public interface SlotProducer extends AutoCloseable {

    /** {@code initTransactions}: after {@link Init.Done} every earlier epoch's transaction of the id is complete. */
    Init init();

    /** {@code beginTransaction}: local to the producer, no round trip. */
    void begin();

    Sent send(ProducerRecord<byte[], byte[]> record, TxnSendOption option);

    /**
     * Readies the sends to {@code topics} (the topics of a transaction about to be sent): topics seen for the first
     * time are looked up together instead of one per first send ({@code TxnSendProducer.prepareTopics}). A scripted
     * producer needs nothing.
     */
    default void prepare(Set<String> topics) {
    }

    /**
     * Sends every record of the open transaction now and waits until each is acknowledged or failed (rule V.2's
     * flush before the progress records): without it, a send's answer waits for {@code linger.ms}. A scripted producer
     * answers at once and needs none.
     */
    default void flush() {
    }

    End commit();

    End abort();

    void close(Duration timeout);

    @Override
    default void close() {
        close(Duration.ZERO);
    }

    /** How {@code initTransactions} ended. */
    sealed interface Init {
        /** The id's producer id and the epoch this producer now holds. */
        record Done(ProducerEpoch epoch) implements Init {
        }

        /** Another producer of the id holds a newer epoch (never the answer of a fresh init, kept for the model). */
        record Fenced(Throwable cause) implements Init, Caused {
        }

        /** Timed out or refused for now (a transaction of the id still completing); retried at a later put. */
        record Transient(Throwable cause) implements Init, Caused {
        }

        /** Refused for good: an ACL, a broken cluster. */
        record Fatal(Throwable cause) implements Init, Caused {
        }
    }

    /** How a {@code send} ended. */
    sealed interface Sent {
        /** In the batch; the future gives its offset once acknowledged. */
        record Accepted(Future<RecordMetadata> metadata) implements Sent {
        }

        /** Left out by {@link TxnSendOption#IGNORE_SEND_ERRORS}: the transaction goes on without it. */
        record Skipped(Throwable cause) implements Sent, Caused {
        }

        /** The transaction cannot commit any more (fenced, aborted, closed). */
        record Failed(Throwable cause) implements Sent, Caused {
        }
    }

    /** How a commit or an abort ended. */
    sealed interface End {
        record Done() implements End {
        }

        /** The id's epoch moved on: another producer of the id, a fence, the coordinator's timeout. */
        record Fenced(Throwable cause) implements End, Caused {
        }

        /** The answer is unknown (a timeout, an answer lost): the transaction may have ended either way. */
        record MaybeDone(Throwable cause) implements End, Caused {
        }

        /** Not ended, retriable with the same producer. */
        record Transient(Throwable cause) implements End, Caused {
        }

        record Fatal(Throwable cause) implements End, Caused {
        }
    }
}
