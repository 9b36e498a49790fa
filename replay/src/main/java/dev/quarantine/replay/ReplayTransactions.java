package dev.quarantine.replay;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.TxnSendProducer;

/**
 * What a writing replay writes and commits: one transaction per batch holding what its dead letters became and the
 * replay's progress, through a {@link ReplayWriter} this class owns and replaces when {@link ProducerRestarts} says
 * so. Keeps what the ranges of written dead letters need across batches (the last offset read per partition).
 */
final class ReplayTransactions implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplayTransactions.class);

    /**
     * What became of a batch: {@code committed}, or not (the broker rejected records of it, or a new producer took
     * over after a failure), then {@code progress} is the committed progress to read from again.
     */
    record Written(ReplayProgress progress, boolean committed) {
    }

    private final ReplayConfig config;
    private final ReplayTopics topics;
    private final ReplayListener listener;
    private final ProducerRestarts restarts = new ProducerRestarts(ReplayEngine.MAX_PRODUCER_RESTARTS);
    private final Map<Integer, Long> previousRead = new HashMap<>();
    private final Function<Map<String, Object>, TxnSendProducer<byte[], byte[]>> producers;
    private ReplayWriter writer;
    private boolean committedSinceInit;
    private ReplayProgress lastCommitted;
    /** What the batch of a commit that waits for its answer told, for when it turns out committed. */
    private Runnable afterPendingCommit = () -> { };

    /** @throws org.apache.kafka.common.config.ConfigException from the producer's own settings */
    ReplayTransactions(ReplayConfig config, ReplayTopics topics, ReplayListener listener) {
        this(config, topics, listener, TxnSendProducer::new);
    }

    /** For tests: {@code producers} builds each producer (the first and those of restarts) from its settings. */
    ReplayTransactions(ReplayConfig config, ReplayTopics topics, ReplayListener listener,
                       Function<Map<String, Object>, TxnSendProducer<byte[], byte[]>> producers) {
        this.config = config;
        this.topics = topics;
        this.listener = listener;
        this.producers = producers;
        this.writer = newWriter();
    }

    /** Fences older instances of this replay: their open transactions are aborted. */
    void init() {
        writer.init();
    }

    /**
     * The progress to go on from: {@code progress}, or, when a commit waits for its answer, what calling
     * {@code commitTransaction} again settles: the progress it committed, or, when it failed, what a failed commit
     * leads to.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException when the answer does not come in time again
     */
    ReplayProgress settled(ReplayProgress progress) {
        return writer.commitPending() ? completePendingCommit(progress) : progress;
    }

    /**
     * Commits {@code progress} in a transaction of its own.
     *
     * @throws IllegalStateException when a commit waits for its answer: {@link #settled} it first, and build
     *         {@code progress} on what it answers
     */
    ReplayProgress commitAlone(ReplayProgress progress) {
        if (writer.commitPending()) {
            throw new IllegalStateException("a commit of replay " + config.replayId() + " waits for its answer:"
                    + " settle it before committing " + progress.state());
        }
        writer.begin();
        try {
            ReplayProgress committed = writer.commit(progress);
            committed(committed);
            return committed;
        } catch (RuntimeException e) {
            throw writer.abort(e);
        }
    }

    /**
     * Writes {@code batch} with {@code progress} advanced to {@code next} in one transaction; the listener hears each
     * dead letter's report once it is committed.
     *
     * @throws ReplayTakenOverException when a newer instance of this replay fenced this one
     * @throws org.apache.kafka.common.config.ConfigException naming {@code replay.written.ranges.max} when the batch
     *         would pass it
     * @throws KafkaException after aborting the transaction
     */
    Written write(ReplayProgress progress, List<Planned> batch, Map<Integer, Long> next) {
        if (writer.commitPending()) {
            // the batch is not written: the engine reads it again from the progress the retried commit answers
            return new Written(completePendingCommit(progress), false);
        }
        List<RecordReport> reports = new ArrayList<>();
        BatchTally tally = new BatchTally(progress, previousRead);
        ReplayWriter w = writer;
        ReplayProgress committed;
        w.begin();
        try {
            for (Planned planned : batch) {
                RecordReport report = planned.decision().target().map(target -> w.replay(planned.letter(), target))
                        .orElseGet(() -> skipped(planned));
                reports.add(report);
                tally.add(planned.record().partition(), planned.record().offset(), report.outcome());
            }
            ProgressChecks.requireWithinRangeLimit(config, tally.written());
            committed = w.commit(tally.advance(progress, next, Instant.now()));
            committed(committed);
            previousRead.putAll(tally.read());
        } catch (ReplayWriter.BatchRejected e) {
            return new Written(progress, false);
        } catch (RuntimeException e) {
            if (w.commitPending()) {
                afterPendingCommit = () -> {
                    previousRead.putAll(tally.read());
                    reports.forEach(listener::onRecord);
                };
            }
            return new Written(afterFailure(progress, w.abort(e), Optional.empty()), false);
        }
        reports.forEach(listener::onRecord);
        return new Written(committed, true);
    }

    /**
     * Calls {@code commitTransaction} again for the commit whose answer did not come in time (Kafka's producer allows
     * nothing else meanwhile), and answers the progress it committed; when it failed (aborted), what
     * {@link #afterFailure} decides from {@code progress}, the progress before it.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException when the answer does not come in time again
     */
    private ReplayProgress completePendingCommit(ReplayProgress progress) {
        ReplayProgress pending = writer.pendingProgress().orElseThrow();
        ReplayProgress committed;
        try {
            committed = writer.retryCommit();
        } catch (ReplayWriter.BatchRejected e) {
            afterPendingCommit = () -> { };
            return progress; // aborted: the batch is read again, its rejected record dead-lettered this time
        } catch (RuntimeException e) {
            if (writer.commitPending()) {
                return afterFailure(progress, e, Optional.empty()); // no answer again: thrown, retriable
            }
            afterPendingCommit = () -> { };
            // it may have committed all the same: a resent EndTxn answered with an error after the first one committed
            return afterFailure(progress, writer.abort(e), Optional.of(pending));
        }
        committed(committed);
        afterPendingCommit.run();
        afterPendingCommit = () -> { };
        log.info("Replay {}: the commit whose answer had not come in time is committed", config.replayId());
        return committed;
    }

    @Override
    public void close() {
        writer.close();
    }

    private void committed(ReplayProgress committed) {
        committedSinceInit = true;
        lastCommitted = committed;
        restarts.committed();
    }

    /**
     * See {@link ProducerRestarts}: a new producer, the error thrown, or the takeover said. {@code maybeCommitted}: the
     * progress of a failed commit that may have committed all the same, which the ownership check takes as this
     * producer's too.
     */
    private ReplayProgress afterFailure(ReplayProgress progress, RuntimeException error,
                                        Optional<ReplayProgress> maybeCommitted) {
        boolean afterCommit = committedSinceInit;
        switch (restarts.after(error, afterCommit, writer.commitRefused(), () -> ownership(error, maybeCommitted))) {
            case RESTART -> {
                log.warn("Replay {}: {} ({}); no other instance of the replay has started since, resuming with a new"
                        + " producer from the committed progress ({} of {})", config.replayId(), afterCommit
                        ? "a transaction failed after the producer's last commit"
                        : "the first transaction after resuming failed while the transaction of the replay's previous"
                                + " instance was being ended",
                        error.toString(), restarts.restarts(), ReplayEngine.MAX_PRODUCER_RESTARTS);
                return restartWriter(progress);
            }
            case TAKEN_OVER -> throw new ReplayTakenOverException(config.replayId(), error);
            case GIVE_UP -> throw new KafkaException("Replay " + config.replayId() + " could not resume: "
                    + ReplayEngine.MAX_PRODUCER_RESTARTS + " new producers in a row failed their first transaction;"
                    + " its committed progress is kept, start it again to resume", error);
            default -> throw error;
        }
    }

    /**
     * Whether the replay's transactional.id is still this producer's after it committed
     * ({@link ProducerRestarts#ownership}). UNKNOWN when the coordinator or the progress topic cannot be read; the
     * reason is added to {@code error}. {@code maybeCommitted} counts as this producer's commit as well.
     */
    private ProducerRestarts.Ownership ownership(RuntimeException error, Optional<ReplayProgress> maybeCommitted) {
        String transactionalId = ReplayEngine.TRANSACTIONAL_ID_PREFIX + config.replayId();
        try {
            TransactionState state = topics.transactionState(transactionalId);
            ReplayProgress read = topics.readReplays(false, true).get(config.replayId());
            boolean progressIsOurs = (state == TransactionState.COMPLETE_COMMIT
                    || state == TransactionState.COMPLETE_ABORT)
                    && (sameCommit(lastCommitted, read) || maybeCommitted.filter(m -> sameCommit(m, read)).isPresent());
            ProducerRestarts.Ownership ownership = ProducerRestarts.ownership(state, writer.abortedSinceCommit(),
                    progressIsOurs);
            log.info("Replay {}: after this producer's failure the coordinator holds {} in state {}, the committed"
                    + " progress is {}this producer's last: {}", config.replayId(), transactionalId, state,
                    progressIsOurs ? "" : "not ", ownership);
            return ownership;
        } catch (RuntimeException notRead) {
            error.addSuppressed(notRead);
            return ProducerRestarts.Ownership.UNKNOWN;
        }
    }

    /** Whether {@code read} is the progress record of {@code ours}: the same commit (written ranges aside). */
    private static boolean sameCommit(ReplayProgress ours, ReplayProgress read) {
        return read != null && ours.state() == read.state() && ours.nextOffsets().equals(read.nextOffsets())
                && ours.counts().equals(read.counts()) && Objects.equals(ours.updatedAt(), read.updatedAt());
    }

    /** Replaces the producer with a new one, fencing the old; answers the committed progress, read again. */
    private ReplayProgress restartWriter(ReplayProgress progress) {
        writer.close();
        writer = newWriter();
        writer.init();
        committedSinceInit = false;
        previousRead.clear();
        ReplayProgress committed = topics.readReplays(false, true).get(config.replayId());
        return committed != null ? committed : progress;
    }

    private ReplayWriter newWriter() {
        return new ReplayWriter(producers.apply(ReplayClients.producerConfigs(config.clientConfigs(), config)), config);
    }

    private static RecordReport skipped(Planned planned) {
        return new RecordReport(planned.letter().position(), planned.decision().outcome(),
                planned.decision().topic(), planned.letter().errorClass(), planned.decision().reason());
    }
}
