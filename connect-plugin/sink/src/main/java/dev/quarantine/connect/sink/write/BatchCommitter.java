package dev.quarantine.connect.sink.write;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongConsumer;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.cluster.LastTransaction;
import dev.quarantine.connect.sink.cluster.RecentCommits;
import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.progress.CommitCompletion;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressRefusal;
import dev.quarantine.connect.sink.progress.RedoRange;
import dev.quarantine.txn.SendErrors;

/**
 * Commits a batch of one source partition in one transaction, deciding after each failed attempt, by
 * {@link FailureAction}, what happens next:
 *
 * <table>
 * <caption>After a failed attempt</caption>
 * <tr><th>failure</th><th>then</th></tr>
 * <tr><td>fenced (the attempt's error, or any of its records')</td><td>{@link WriterErrors.Fenced}, no abort (the
 *     epoch is gone)</td></tr>
 * <tr><td>the producer misused or closed (IllegalStateException)</td><td>{@link WriterErrors.BrokenProducer}</td></tr>
 * <tr><td>our own verdict (strict-mode poison, dead letter failed, no topic, breaker, a transient converter failure)
 *     </td><td>abort, rethrow</td></tr>
 * <tr><td>a record, or the attempt, failed FATAL</td><td>abort, {@link WriterErrors.FatalWrite} naming it</td></tr>
 * <tr><td>a record was rejected as POISON by the broker</td><td>abort, return it for isolation</td></tr>
 * <tr><td>anything else (RETRY)</td><td>abort, try again; after {@code transaction.retries} attempts a
 *     RetriableException hands the batch back to Connect</td></tr>
 * </table>
 */
public final class BatchCommitter {

    private static final Logger log = LoggerFactory.getLogger(BatchCommitter.class);
    private final TopicPartition source;
    private final TargetProducer producer;
    private final WriteSetup setup;
    private final LongConsumer committed;
    private final RunningRedo redo;
    private int failures;
    private Instant retryUntil = Instant.MAX;
    /** An abort may have left records open: see {@link HangingTransactions}, checked before writing again. */
    private boolean aborted;
    /** The first source offset of the last committed transaction that wrote records (its progress record's from). */
    private long lastFrom;

    BatchCommitter(TopicPartition source, TargetProducer producer, WriteSetup setup, LongConsumer committed,
                   boolean lastAborted) {
        this.source = source;
        this.producer = producer;
        this.setup = setup;
        this.committed = committed;
        this.aborted = lastAborted;
        this.redo = new RunningRedo(source, producer, setup);
    }

    /**
     * Starts a new batch: the retry budget is per batch delivered by Connect, and no attempt after a failed one starts
     * from {@code retryUntil} on (the put's bound, {@link ConfigRules#writeBound}).
     */
    void newBatch(Instant retryUntil) {
        failures = 0;
        this.retryUntil = retryUntil;
    }

    /** Commits {@code records}; returns the first record the broker rejected (after aborting), or empty. */
    Optional<TransactionAttempt.Failure> commit(List<SinkRecord> records, Map<Long, Throwable> poison) {
        while (true) {
            abortWhatAnAbortLeftOpen(records);
            TransactionAttempt attempt = new TransactionAttempt(source, producer, setup, records, poison);
            try {
                long next = attempt.run();
                lastFrom = records.get(0).originalKafkaOffset();
                redo.committed(lastFrom, attempt.lastOffsets());
                committed.accept(next);
                return Optional.empty();
            } catch (RuntimeException e) {
                Optional<TransactionAttempt.Failure> rejected = afterFailure(e, attempt, records);
                if (rejected.isPresent()) {
                    return rejected;
                }
            }
        }
    }

    /**
     * Commits the progress alone at {@code next}, past records that never reached the task (an SMT dropped them, or
     * a converter or transform failed on them under {@code errors.tolerance=all}, and Connect reported them to its
     * own dead-letter queue): read again from an older progress, they would be reported again. Returns whether it
     * committed. Not while an abort may have left records open ({@link #abortWhatAnAbortLeftOpen}): only the next
     * write knows the topics to repair (those of its records), and this commit's marker would commit what the abort
     * left open there. A failure is aborted and left to the next write, which writes the progress anyway.
     *
     * @throws WriterErrors.Fenced         when this producer lost its epoch
     * @throws WriterErrors.BrokenProducer when the producer's state is unknown and it must be recreated
     */
    boolean advance(long next) {
        if (aborted) {
            return false;
        }
        TransactionAttempt attempt = new TransactionAttempt(source, producer, setup, List.of(), Map.of());
        try {
            committed.accept(attempt.advance(lastFrom, next));
            return true;
        } catch (WriterErrors.Fenced | WriterErrors.BrokenProducer e) {
            throw e;
        } catch (RuntimeException e) {
            if (SendErrors.isFencing(e)) {
                throw new WriterErrors.Fenced(source, e);
            }
            if (e instanceof IllegalStateException) {
                throw new WriterErrors.BrokenProducer(source, e);
            }
            abort(e);
            log.info("Moving the progress of {} on to {} failed and was aborted ({}); the next write of the partition"
                    + " moves it", source, next, e.getClass().getName());
            return false;
        }
    }

    /**
     * After an abort (ours, or the last one of the transactional id before this producer), before writing again:
     * a broker restarting while the abort's markers were due can complete it without writing them (see
     * {@link HangingTransactions}), and this producer's next commit marker would then commit the aborted records
     * next to their copies written again. Their topics are those of the records written again, the DLQ, and the
     * progress topic (an aborted progress record committed late would move the progress past records never written).
     */
    private void abortWhatAnAbortLeftOpen(List<SinkRecord> records) {
        abortWhatAnAbortLeftOpen(records, null);
    }

    /** As above, its waits ending by {@code deadline} (null: each its own admin timeout). */
    private void abortWhatAnAbortLeftOpen(List<SinkRecord> records, Instant deadline) {
        if (!aborted) {
            return;
        }
        Set<String> topics = new TreeSet<>();
        records.stream().filter(r -> r.topic() != null).forEach(r -> topics.add(setup.converter().targetTopic(r)));
        setup.deadLetters().ifPresent(letters -> topics.add(letters.topic()));
        topics.add(setup.progress().topic());
        if (deadline == null) {
            setup.hanging().abortBeforeWriting(producer.transactionalId(), topics);
        } else {
            setup.hanging().abortBeforeWriting(producer.transactionalId(), topics, deadline);
        }
        aborted = false;
    }

    /**
     * Before the partition's progress is read: an abort's progress record left open would hold back what a
     * read_committed reader of the progress topic reaches, for good, so it is aborted first (the rest of what the
     * abort left open is checked before writing).
     */
    void beforeReadingProgress() {
        if (aborted) {
            setup.hanging().abortBeforeWriting(producer.transactionalId(), Set.of(setup.progress().topic()));
        } else {
            setup.hanging().lastCommitLeftOpen(producer.transactionalId()).ifPresent(this::completeTheCommitLeftOpen);
        }
    }

    /** The partition resumes at {@code offset} without progress of its own before it (none, or started over). */
    void restoredAt(long offset) {
        lastFrom = offset;
    }

    /**
     * After the progress ({@code last}) is read, before anything is written: the id's committed last transaction C
     * may be left open on target or dead-letter partitions (a restarting broker skipped its markers there), where the
     * first of our transactions that aborts would abort C's records with its own, while the progress is past them
     * (the broker counts an open transaction from its first record). So C is redone there (see
     * {@link HangingTransactions}): a transaction of the progress alone moves it back to C's {@code from} with the
     * intent to redo those partitions up to C's {@code next} (C open on the progress partition was completed there
     * before the read, {@link #beforeReadingProgress}), then C is aborted on them. An intent found in {@code last} is
     * done again, as many times as it takes. A redo {@code carried} from the partition's previous producer of this
     * task (its abort failed, see {@link CarriedRedo}) is begun the same way, joined with what is found. Returns the
     * source offset the partition resumes at. C is the commit a completion standing in {@code last} names
     * ({@link CommitCompletion}: the process stopped, or the intent failed, after C was completed on the progress
     * partition), else the id's last transaction; the intent clears that completion in the same commit, and an open
     * that finds C open nowhere (and carries no redo) clears it in a transaction of its own.
     *
     * @throws RetriableException when the target cluster did not answer in time
     * @throws ConnectException   when the intent could not be committed for good
     */
    long redoWhatACommitLeftOpen(ProgressRecord last, Optional<CarriedRedo> carried) {
        lastFrom = last.from();
        String id = producer.transactionalId();
        Set<TopicPartition> open = setup.hanging().committedLeftOpen(id, topicsACommitMayBeLeftOpenOn(last),
                last.redo(), last.leftOpen().map(CommitCompletion::commit));
        Optional<RedoRange> carriedRedo = carried.flatMap(c -> c.after(last, open));
        if (carried.isPresent() && carriedRedo.isEmpty()) {
            log.error("{}", new WriterErrors.RedoLost(source, carried.get(), new IllegalStateException("the progress"
                    + " of " + source + " went on to " + last.next() + " under another producer since")).getMessage());
        }
        ProducerRecord<byte[], byte[]> clear = CommitCompletion.tombstone(setup.progress().topic(), id);
        if (open.isEmpty() && carriedRedo.isEmpty()) {
            if (last.leftOpen().isPresent()) {
                log.info("The committed transaction of {} named by its completion ({}) is open on none of its"
                        + " target partitions; clearing the completion", id, last.leftOpen().get());
                commitAtOpen(List.of(clear), "clear the completion of");
            }
            return last.next();
        }
        long from = carriedRedo.isPresent() ? carried.get().from() : last.from();
        RedoRange redo = carriedRedo.orElseGet(() -> RedoRange.after(last, open));
        if (!open.isEmpty()) {
            log.warn("A committed transaction of {} is left open on {} (a restarting broker skipped its markers): its"
                    + " records there, source offsets {} to {}, are written again after it is aborted there", id,
                    open, last.from(), redo.end() - 1);
        }
        ProducerRecord<byte[], byte[]> intent = setup.progress().intent(id, source, from, redo);
        commitAtOpen(last.leftOpen().isPresent() ? List.of(clear, intent) : List.of(intent),
                "commit the intent to redo");
        carried.ifPresent(c -> log.warn("The commits of {} aborted with a transaction whose abort failed ({}) are"
                + " written again: the intent to redo is committed", source, c.describe()));
        setup.hanging().abortForRedo(id, redo.partitions());
        lastFrom = from;
        return from;
    }

    /**
     * Commits {@code records} (progress partition records) in a transaction of their own at open; a failure is
     * aborted and thrown, transient or not, naming {@code what} failed.
     */
    private void commitAtOpen(List<ProducerRecord<byte[], byte[]>> records, String what) {
        try {
            producer.begin();
            producer.commit(records, (metadata, e) -> { });
        } catch (KafkaException e) {
            RuntimeException failure = SendErrors.isTransient(e)
                    ? new RetriableException("Could not " + what + " " + source + " in time", e)
                    : new ConnectException("Could not " + what + " " + source + ": " + e, e);
            abortQuietly(failure);
            throw failure;
        }
    }

    /**
     * The topics {@link #redoWhatACommitLeftOpen} looks for the committed last transaction on, after the progress
     * {@code last} is read: those {@code last} maps records into, the partition's target topic, the DLQ, and those of
     * a redo {@code last} is in.
     */
    Set<String> topicsACommitMayBeLeftOpenOn(ProgressRecord last) {
        Set<String> topics = new TreeSet<>(last.targetPartitions().keySet());
        topics.add(setup.converter().targetTopic(source.topic()));
        setup.deadLetters().ifPresent(letters -> topics.add(letters.topic()));
        last.redo().ifPresent(redo -> topics.addAll(redo.topics()));
        return topics;
    }

    /**
     * The id's last transaction {@code left} committed, but a restarting broker skipped its marker on the progress
     * partition, where its progress record now holds back every read_committed reader: a commit of this producer (same
     * producer id, a later epoch) writing there completes it, as its marker applies to the producer id's open records.
     * What it writes is the {@link CommitCompletion} naming {@code left}, which the progress read returns with the
     * id's progress until the open's intent to redo (or its finding nothing open) clears it: so a process that stops
     * before that still has {@code left} looked for at the next open.
     */
    private void completeTheCommitLeftOpen(LastTransaction left) {
        String id = producer.transactionalId();
        log.warn("The committed last transaction of {} is still open on {} (a restarting broker skipped its"
                + " marker); completing it with a commit before reading the progress", id, setup.progress().topic());
        producer.begin();
        producer.commit(new CommitCompletion(left.producerId(), left.highestEpoch())
                .toRecord(setup.progress().topic(), id), (metadata, e) -> { });
        setup.hanging().forget(id);
    }


    private Optional<TransactionAttempt.Failure> afterFailure(RuntimeException e, TransactionAttempt attempt,
                                                              List<SinkRecord> records) {
        if (SendErrors.isFencing(e) || attempt.first(FailureAction.FENCED).isPresent()) {
            throw new WriterErrors.Fenced(source, e);
        }
        if (e instanceof IllegalStateException) {
            throw new WriterErrors.BrokenProducer(source, e);
        }
        Optional<RecentCommits.HeldOpen> held = redo.beforeAbort();
        long failedFrom = records.get(0).originalKafkaOffset();
        if (e instanceof ConnectException) {
            abort(e, held.map(h -> redo.carried(h, failedFrom)));
            redoHeld(held, records, e);
            throw e;
        }
        Optional<Exception> progress = attempt.progressFailure()
                .filter(p -> FailureAction.of(p) != FailureAction.RETRY && refusedItself(p, attempt));
        if (progress.isPresent()) {
            throw failing(progressFailed(progress.get()), held, failedFrom);
        }
        Optional<TransactionAttempt.Failure> fatal = attempt.first(FailureAction.FATAL);
        if (fatal.isPresent() || FailureAction.of(e) == FailureAction.FATAL) {
            throw failing(fatal(fatal, e, attempt, records), held, failedFrom);
        }
        abort(e, held.map(h -> redo.carried(h, failedFrom)));
        redoHeld(held, records, e);
        Optional<TransactionAttempt.Failure> rejected = attempt.first(FailureAction.POISON);
        if (rejected.isEmpty()) {
            retryOrHandBack(records, e);
        }
        return rejected;
    }

    /**
     * After an abort that aborted commits of this writer held open by the failing transaction ({@code held}, see
     * {@link RunningRedo}): what the abort itself may have left open is aborted, the intent to redo them committed,
     * and the partition resumes where they began ({@link WriterErrors.RedoBegun}: its waiting records dropped, the
     * worker sought there), unless {@code cause} fails the task anyway (the next open redoes them).
     */
    private void redoHeld(Optional<RecentCommits.HeldOpen> held, List<SinkRecord> records, RuntimeException cause) {
        if (held.isEmpty()) {
            return;
        }
        try {
            abortWhatAnAbortLeftOpen(records, redo.lookDeadline());
        } catch (ConnectException repairFailed) {
            log.warn("Could not look for what the abort of {} left open before the intent to redo: {}", source,
                    repairFailed.getMessage());
        }
        long resumeAt = redo.intentAfterAbort(held.get(), records.get(0).originalKafkaOffset());
        lastFrom = resumeAt;
        committed.accept(resumeAt);
        if (!(cause instanceof ConnectException) || cause instanceof RetriableException) {
            throw new WriterErrors.RedoBegun(source, resumeAt, cause);
        }
    }

    /**
     * Before the task fails with {@code failure} (see {@link HeldCommitsOnFailure}): aborts, and when the failing
     * transaction held commits of this writer open, commits the intent to redo them (the next open redoes them) or,
     * when the abort or the intent failed, returns the error that names them as lost instead.
     */
    private RuntimeException failing(RuntimeException failure, Optional<RecentCommits.HeldOpen> held,
                                     long failedFrom) {
        boolean aborted = abortQuietly(failure);
        switch (HeldCommitsOnFailure.of(held.isPresent(), aborted)) {
            case NONE_HELD:
                return failure;
            case PRODUCER_BROKEN:
                return new WriterErrors.RedoLost(source, redo.carried(held.get(), failedFrom), failure);
            default:
                try {
                    committed.accept(redo.intentAfterAbort(held.get(), failedFrom));
                    return failure;
                } catch (WriterErrors.RedoLost lost) {
                    lost.addSuppressed(failure);
                    return lost;
                }
        }
    }

    /** Whether the progress record's error is its own, not a record's or dead letter's: {@link ProgressRefusal}. */
    private boolean refusedItself(Exception progressError, TransactionAttempt attempt) {
        return ProgressRefusal.isOwn(progressError, setup.progress().topic(), attempt.failures());
    }

    /** The progress record itself was refused: no batch of the partition can commit until that is fixed. */
    private ConnectException progressFailed(Exception cause) {
        String topic = setup.progress().topic();
        return new ConnectException("The progress of " + source + " cannot be written to the progress topic " + topic
                + " (" + cause + "), so its batch cannot commit. Check the ACLs of the target producer's principal"
                + " (WRITE and DESCRIBE on topic " + topic + ") and the topic's settings (max.message.bytes,"
                + " cleanup.policy=compact)", cause);
    }

    /** The task's error for a fatal failure: of the record's dead letter, or of the record (or the attempt). */
    private ConnectException fatal(Optional<TransactionAttempt.Failure> fatal, RuntimeException e,
                                   TransactionAttempt attempt, List<SinkRecord> records) {
        SinkRecord record = fatal.map(f -> find(records, f.offset())).orElseGet(attempt::current);
        Throwable cause = fatal.map(TransactionAttempt.Failure::error).orElse(e);
        if (fatal.isPresent() && fatal.get().deadLetter()) {
            return new WriterErrors.DeadLetterFailed(record, setup.deadLetters().orElseThrow().topic(), cause);
        }
        return new WriterErrors.FatalWrite(record, setup.converter().targetTopic(record), cause);
    }

    private void retryOrHandBack(List<SinkRecord> records, RuntimeException e) {
        boolean spent = ++failures > setup.retries();
        if (spent || !Instant.now().isBefore(retryUntil)) {
            throw new RetriableException("Could not commit the batch of " + source + " (offsets "
                    + records.get(0).originalKafkaOffset() + " to " + records.get(records.size() - 1)
                    .originalKafkaOffset() + ") in " + failures + " attempts" + (spent ? "" : ", the last this put"
                    + " may start (consumer.override.max.poll.interval.ms less twice target.producer.max.block.ms"
                    + " after it began)") + "; the worker will deliver it again", e);
        }
        log.info("Transaction of {} failed and was aborted ({}); writing it again", source, e.getClass().getName());
    }

    private static SinkRecord find(List<SinkRecord> records, long offset) {
        return records.stream().filter(r -> r.originalKafkaOffset() == offset).findFirst().orElseThrow();
    }

    /** Aborts the open transaction; a failed abort is attached to {@code cause} and leaves the producer broken. */
    void abort(RuntimeException cause) {
        abort(cause, Optional.empty());
    }

    /**
     * As {@link #abort(RuntimeException)}; when it fails, {@code redo} (commits of this writer the transaction held
     * open, aborted with it all the same) goes with the error to the partition's next producer.
     */
    private void abort(RuntimeException cause, Optional<CarriedRedo> redo) {
        try {
            producer.abort();
            aborted = true;
            setup.hanging().forget(producer.transactionalId());
            setup.metrics().aborted();
        } catch (RuntimeException abortFailure) {
            cause.addSuppressed(abortFailure);
            if (SendErrors.isFencing(abortFailure)) {
                throw new WriterErrors.Fenced(source, cause, redo);
            }
            throw new WriterErrors.BrokenProducer(source, cause, redo);
        }
    }

    /**
     * Aborts before the task fails anyway: a failed abort is only attached to {@code cause}. Returns whether it did.
     */
    private boolean abortQuietly(RuntimeException cause) {
        try {
            producer.abort();
            setup.metrics().aborted();
            return true;
        } catch (RuntimeException abortFailure) {
            cause.addSuppressed(abortFailure);
            return false;
        }
    }
}
