package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Writes the records of one source partition to the target cluster: each batch in one transaction of this
 * partition's own producer (transactional id {@code <prefix>.<topic>-<partition>}), together with the dead letters
 * of its poison records and the partition's progress. Either all of it commits or none of it.
 *
 * <p>The work is split: {@link TransactionAttempt} runs one transaction, {@link BatchCommitter} decides after a
 * failure ({@link FailureAction}), {@link RejectionIsolator} finds the poison among records the broker rejected.
 */
final class PartitionWriter implements AutoCloseable {

    private final TopicPartition source;
    private final TargetProducer producer;
    private final BatchCommitter committer;
    private final RejectionIsolator isolator;
    private volatile OptionalLong nextOffset = OptionalLong.empty();

    /**
     * @param lastAborted whether the last transaction of the partition's transactional id, before this producer,
     *                    ended in an abort: its records may be left open (see {@link HangingTransactions})
     */
    PartitionWriter(TopicPartition source, TargetProducer producer, WriteSetup setup, boolean lastAborted) {
        this.source = source;
        this.producer = producer;
        this.committer = new BatchCommitter(source, producer, setup, next -> nextOffset = OptionalLong.of(next),
                lastAborted);
        this.isolator = new RejectionIsolator(committer, setup);
    }

    TopicPartition source() {
        return source;
    }

    /** The transactional id, the key of this partition's progress record. */
    String group() {
        return producer.transactionalId();
    }

    /** The next source offset to write, once known (restored on open or after a commit). */
    OptionalLong nextOffset() {
        return nextOffset;
    }

    /** Before the progress is read: see {@link BatchCommitter#beforeReadingProgress()}. */
    void beforeReadingProgress() {
        committer.beforeReadingProgress();
    }

    void restored(long offset) {
        nextOffset = OptionalLong.of(offset);
    }

    /**
     * Writes {@code records} (all of this partition, in offset order) in one transaction; records below the
     * committed progress are skipped (the worker may deliver them again after a retry or a rewind).
     *
     * @throws WriterErrors.Fenced         when this producer lost its epoch
     * @throws WriterErrors.BrokenProducer when the producer's state is unknown and it must be recreated
     * @throws org.apache.kafka.connect.errors.RetriableException when the batch could not be committed within the
     *                                     retries, or a converter failed transiently
     * @throws org.apache.kafka.connect.errors.ConnectException on a poison record with send.errors.tolerance=none,
     *                                     a dead letter that cannot be written, a fatal error, a tripped breaker
     */
    void write(List<SinkRecord> records) {
        List<SinkRecord> fresh = records.stream()
                .filter(r -> nextOffset.isEmpty() || r.originalKafkaOffset() >= nextOffset.getAsLong()).toList();
        if (!fresh.isEmpty()) {
            committer.newBatch();
            isolator.write(fresh);
        }
    }

    /** Closes the producer, waiting at most {@code timeout} for it. */
    void close(Duration timeout) {
        producer.close(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
