package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.progress.ProgressRecord;

/**
 * Writes the records of one source partition to the target cluster: the records collected over puts (see
 * {@link CommitTrigger}) in one transaction of this partition's own producer (transactional id
 * {@code <prefix>:<topic>-<partition>}), together with the dead letters of its poison records and the partition's
 * progress. Either all of it commits or none of it. Waiting records die with the writer: a fenced writer's, or a
 * closed partition's, are read again from the committed progress.
 *
 * <p>The work is split: {@link TransactionAttempt} runs one transaction, {@link BatchCommitter} decides after a
 * failure ({@link FailureAction}), {@link RejectionIsolator} finds the poison among records the broker rejected.
 */
public final class PartitionWriter implements AutoCloseable {

    private final TopicPartition source;
    private final TargetProducer producer;
    private final BatchCommitter committer;
    private final RejectionIsolator isolator;
    private final PendingRecords pending = new PendingRecords();
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

    public TopicPartition source() {
        return source;
    }

    /** The transactional id, the key of this partition's progress record. */
    public String group() {
        return producer.transactionalId();
    }

    /** The next source offset to write, once known (restored on open or after a commit). */
    public OptionalLong nextOffset() {
        return nextOffset;
    }

    /** Before the progress is read: see {@link BatchCommitter#beforeReadingProgress()}. */
    public void beforeReadingProgress() {
        committer.beforeReadingProgress();
    }

    /** Resumes at {@code offset}, without progress before it (none, or a source topic started over). */
    public void restored(long offset) {
        committer.restoredAt(offset);
        nextOffset = OptionalLong.of(offset);
    }

    /** The topics {@link #restored(ProgressRecord, Optional)} looks on: {@link BatchCommitter#topicsACommitMayBeLeftOpenOn}. */
    public Set<String> topicsACommitMayBeLeftOpenOn(ProgressRecord last) {
        return committer.topicsACommitMayBeLeftOpenOn(last);
    }

    /**
     * Resumes from the committed progress {@code last}, after redoing a committed transaction left open, or the redo
     * {@code carried} from the partition's previous producer (see {@link BatchCommitter#redoWhatACommitLeftOpen});
     * returns the source offset it resumes at.
     */
    public long restored(ProgressRecord last, Optional<CarriedRedo> carried) {
        long resumeAt = committer.redoWhatACommitLeftOpen(last, carried);
        nextOffset = OptionalLong.of(resumeAt);
        return resumeAt;
    }

    /**
     * Adds records (all of this partition, in offset order) to those waiting for the next {@link #write()}; records
     * already waiting or below the committed progress are skipped (the worker may deliver them again after a retry
     * or a rewind). Returns how many were added.
     */
    public int add(List<SinkRecord> records, long nowMs) {
        return pending.add(records, nextOffset, nowMs);
    }

    /** The records waiting for the next {@link #write()}. */
    public PendingRecords pending() {
        return pending;
    }

    /**
     * Where the worker's consumer must seek for every record not committed to be delivered again, the waiting
     * records dropped: the committed progress, or the first waiting record when the partition never committed
     * (empty when neither is known).
     */
    public OptionalLong dropWaiting() {
        OptionalLong resumeAt = nextOffset.isPresent() ? nextOffset : pending.records().stream()
                .mapToLong(SinkRecord::originalKafkaOffset).findFirst();
        pending.clear();
        return resumeAt;
    }

    /**
     * Writes the waiting records in one transaction, those below the committed progress skipped (a failed write may
     * have committed a part of them); once committed, nothing waits any more. A write that failed transiently, or
     * fenced or broken (the handler reads them to re-establish the partition), keeps them waiting; one that failed
     * for good drops them, as Connect stops the task and delivers nothing again.
     *
     * @throws WriterErrors.Fenced         when this producer lost its epoch
     * @throws WriterErrors.BrokenProducer when the producer's state is unknown and it must be recreated
     * @param retryUntil                 no attempt after a failed one starts from then on (see {@link BatchCommitter})
     * @throws RetriableException         when the batch could not be committed within the
     *                                     retries or by {@code retryUntil}, or a converter failed transiently
     * @throws org.apache.kafka.connect.errors.ConnectException on a poison record with send.errors.tolerance=none,
     *                                     a dead letter that cannot be written, a fatal error, a tripped breaker
     */
    public void write(Instant retryUntil) {
        List<SinkRecord> fresh = pending.records().stream()
                .filter(r -> nextOffset.isEmpty() || r.originalKafkaOffset() >= nextOffset.getAsLong()).toList();
        try {
            if (!fresh.isEmpty()) {
                committer.newBatch(retryUntil);
                isolator.write(fresh);
            }
        } catch (RuntimeException | Error e) {
            if (!(e instanceof RetriableException || e instanceof WriterErrors.Fenced
                    || e instanceof WriterErrors.BrokenProducer)) {
                pending.clear(); // the task stops: Connect delivers nothing of it again
            }
            throw e;
        }
        pending.clear();
    }

    /**
     * Moves the committed progress on to {@code position}, the worker's position after records that never reached
     * the task, in a transaction of the progress alone (see {@link BatchCommitter#advance}), when nothing waits and
     * the progress is below it. Returns whether it committed one.
     *
     * @throws WriterErrors.Fenced         when this producer lost its epoch
     * @throws WriterErrors.BrokenProducer when the producer's state is unknown and it must be recreated
     */
    public boolean advanceTo(long position) {
        if (pending.count() > 0 || nextOffset.isPresent() && position <= nextOffset.getAsLong()) {
            return false;
        }
        return committer.advance(position);
    }

    /** Closes the producer, waiting at most {@code timeout} for it. */
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
