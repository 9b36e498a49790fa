package dev.quarantine.txn.progress;

import org.apache.kafka.common.IsolationLevel;

/**
 * Where a read of a compacted topic ({@link CompactedTopicReader}) stops: an end offset per partition, taken once when
 * the read starts. The consumer always reads {@code read_committed}, so aborted records and records of transactions
 * still open are never returned; the end says only how far the read must get before it answers.
 */
public enum ReadEnd {

    /**
     * The high watermark, taken after the caller's fence ({@code initTransactions()} or {@code fenceProducers} of the
     * topic's writers). Every transaction those writers began before it has ended by then, so everything they
     * committed lies below it. Not the last stable offset: an open transaction of <em>another</em> writer (another
     * key of the topic) holds that back, and a committed record of ours above it would be missed. A read_committed
     * consumer cannot pass an open transaction either, so a read held back by one waits for it to end (commit,
     * abort, or the coordinator's {@code transaction.timeout.ms}) until the caller's deadline, then fails with
     * {@link ReadHeldBackException} (retriable) naming the partition, where the read stood and this end. It never
     * answers from a shorter read.
     */
    HIGH_WATERMARK(IsolationLevel.READ_UNCOMMITTED),

    /**
     * The last stable offset as it stands when the read starts: what can be read now without waiting for any
     * transaction. The answer may lag behind records committed above a transaction still open, never run ahead.
     * Only for views that must not wait (the monitor's, a dry run): a reader that goes on to write from what it
     * read takes {@link #HIGH_WATERMARK}.
     */
    LAST_STABLE_OFFSET(IsolationLevel.READ_COMMITTED);

    private final IsolationLevel endOf;

    ReadEnd(IsolationLevel endOf) {
        this.endOf = endOf;
    }

    /** The isolation level whose end offsets ({@code ListOffsets} latest) are this end. */
    IsolationLevel endOf() {
        return endOf;
    }
}
