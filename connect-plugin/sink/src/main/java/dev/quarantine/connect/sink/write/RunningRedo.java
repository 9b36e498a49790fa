package dev.quarantine.connect.sink.write;

import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.cluster.OpenTransactionLook;
import dev.quarantine.connect.sink.cluster.RecentCommits;
import dev.quarantine.connect.sink.progress.RedoRange;

/**
 * Keeps a running writer's commits from being lost to its own abort. A restarting broker that skips a commit C's
 * markers on a partition X leaves C open there while the writer's producer writes on; its next transaction writing X
 * is, to the broker, the same open transaction (counted from C's first record), so when it aborts, C's records on X
 * are aborted with it while the progress is past them. Before each abort of a batch's transaction the writer looks
 * ({@link HangingTransactionCheck#openFrom}, two admin calls, only once it has committed records) whether the
 * transaction holds a commit of its own open ({@link RecentCommits}); after the abort it commits the intent to redo
 * (the progress back at the first source offset of the earliest commit held, {@link RedoRange} up to the failing
 * batch on the partitions where it was held), and the partition resumes there, as at open (see
 * {@link HangingTransactions}).
 *
 * <p>The intent cannot come first: the producer is inside the failing transaction, and any other producer of the id
 * fences it, which aborts that transaction the same way. So between the abort and the intent's commit the loss is
 * not recorded anywhere: a process that stops there loses those records, and an intent that cannot commit stops the
 * task naming them.
 */
public final class RunningRedo {

    private static final Logger log = LoggerFactory.getLogger(RunningRedo.class);

    private final TopicPartition source;
    private final TargetProducer producer;
    private final WriteSetup setup;
    private final RecentCommits commits = new RecentCommits();
    /** When the last look's budget ends: the look and the repair after the abort share it. */
    private Instant lookDeadline = Instant.MIN;

    RunningRedo(TopicPartition source, TargetProducer producer, WriteSetup setup) {
        this.source = source;
        this.producer = producer;
        this.setup = setup;
    }

    /** A transaction of source offsets from {@code from} on committed, its last offset on each partition given. */
    void committed(long from, Map<TopicPartition, Long> lastOffsets) {
        commits.committed(from, lastOffsets);
    }

    /**
     * Before aborting the failing transaction: the commits of this writer it holds open, which the abort would lose;
     * empty when none, and when the look failed (logged: the abort goes ahead as it would have). The producer is
     * flushed first: with {@code transaction.version} 2 a partition joins the transaction with its first record's
     * produce request, so a record still in the producer's buffer would leave its partition out of the coordinator's
     * description, and the look would not see it.
     */
    Optional<RecentCommits.HeldOpen> beforeAbort() {
        if (!commits.any()) {
            return Optional.empty();
        }
        Set<TopicPartition> written = commits.partitions();
        flush();
        lookDeadline = Instant.now().plus(setup.hanging().lookBudget());
        try {
            return commits.heldOpen(setup.hanging().openFrom(producer.transactionalId(), written, lookDeadline));
        } catch (OpenTransactionLook.Failed e) {
            log.warn("Could not look whether the failing transaction of {} holds a commit of its own left open on {}"
                    + " (markers skipped by a restarting broker), which its abort would lose: {}; aborting it", source,
                    written, e.getCause() == null ? e : e.getCause().toString());
            return Optional.empty();
        }
    }

    /**
     * When the budget of the last look ({@link HangingTransactionCheck#lookBudget}) ends: the repair after the abort,
     * before the intent, waits no longer.
     */
    Instant lookDeadline() {
        return lookDeadline;
    }

    /** Flushes the producer; a failed flush is logged, and the look goes ahead (the abort must happen anyway). */
    private void flush() {
        try {
            producer.flush();
        } catch (RuntimeException e) {
            log.info("Flushing the producer of {} before the look failed ({}); looking anyway", source, e.toString());
        }
    }

    /**
     * The redo of {@code held}, aborted with the failing transaction (whose records began at source offset
     * {@code failedFrom}), for the partition's next producer when this one cannot commit its intent.
     */
    CarriedRedo carried(RecentCommits.HeldOpen held, long failedFrom) {
        return new CarriedRedo(held.from(), redo(held, failedFrom));
    }

    /**
     * After the abort, which aborted {@code held} with the failing transaction (whose records began at source
     * offset {@code failedFrom}): commits the intent to redo them and returns where the partition resumes.
     *
     * @throws WriterErrors.RedoLost when the intent could not be committed: the records are then lost, and named
     */
    long intentAfterAbort(RecentCommits.HeldOpen held, long failedFrom) {
        String id = producer.transactionalId();
        CarriedRedo carried = carried(held, failedFrom);
        try {
            producer.begin();
            producer.commit(setup.progress().intent(id, source, held.from(), carried.range()), (metadata, e) -> { });
        } catch (KafkaException e) {
            WriterErrors.RedoLost failure = new WriterErrors.RedoLost(source, carried, e);
            try {
                producer.abort();
            } catch (RuntimeException abortFailure) {
                failure.addSuppressed(abortFailure);
            }
            throw failure;
        }
        log.warn("A committed transaction of {} was left open on {} (a restarting broker skipped its markers) and was"
                + " aborted with the failing transaction there; the intent to write its records, {}, again is"
                + " committed", id, held.partitions(), carried.describe());
        setup.hanging().forget(id);
        return held.from();
    }

    /** The redo of {@code held} up to {@code failedFrom}, joined with a redo the partition is still in. */
    private RedoRange redo(RecentCommits.HeldOpen held, long failedFrom) {
        Set<TopicPartition> partitions = new HashSet<>(held.partitions());
        long end = failedFrom;
        Optional<RedoRange> pending = setup.progress().redo(source).filter(r -> r.pendingAt(held.from()));
        if (pending.isPresent()) {
            partitions.addAll(pending.get().partitions());
            end = Math.max(end, pending.get().end());
        }
        return new RedoRange(end, partitions);
    }
}
