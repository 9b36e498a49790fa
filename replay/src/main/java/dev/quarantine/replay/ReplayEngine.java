package dev.quarantine.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Time;

import dev.quarantine.txn.TxnSendProducer;


/**
 * Replays a dead-letter topic: reads it read_committed from where the replay stands up to the end offsets captured
 * when it first started, decides each dead letter ({@link RecordPlan}: filters, truncation, destination), and writes
 * one transaction per {@link #step()} holding the replayed records, the ones dead-lettered again or parked, and the
 * replay's {@link ReplayProgress}. Its transactional.id is {@value #TRANSACTIONAL_ID_PREFIX}{@code <replay.id>}: a new
 * engine with the same id fences the old one and resumes from the committed progress, so no record is written twice.
 *
 * <p>Use: {@link #start()} once, then {@link #step()} until {@link ReplayProgress#finished()}, then {@link #close()}.
 * A replay with speed limits ({@code replay.max.records.per.second}, {@code replay.max.bytes.per.second}) waits between
 * its transactions, never inside one ({@link ReplayThrottle}).
 * Not thread-safe: one thread drives an engine (the replay connector's task, the command line).
 * In {@link Mode#DRY_RUN} nothing is written and no progress is stored: the listener hears what would happen.
 */
public final class ReplayEngine implements AutoCloseable {

    /** Prefix of the transactional.id of a replay's producer. */
    public static final String TRANSACTIONAL_ID_PREFIX = "quarantine-replay-";

    /** Whether the engine writes. */
    public enum Mode { WRITE, DRY_RUN }

    /** New producers a resuming replay may try while its dead instance's transaction is being ended. */
    static final int MAX_PRODUCER_RESTARTS = 5;

    private final ReplayConfig config;
    private final ReplayListener listener;
    private final ReplayTopics topics;
    private final DeadLetterRange range;
    private final ThrottledBatches batches;
    private final DryRunTally dryRunTally = new DryRunTally();
    private final Optional<ReplayTransactions> writer;
    private RecordPlan plan;
    private ReplayProgress progress;

    /**
     * Builds the engine's clients; nothing is read or written before {@link #start()}.
     *
     * <p>The entry points that start a writing replay check {@link ReplayConfig#requireWritable()} first (the command
     * line, the replay connector); the engine does not, so that a replay can be cancelled with the settings it has.
     * With an empty allow-list it writes no destination a header chose: {@link DestinationRule} refuses them.
     *
     * @param listener hears each dead letter's {@link RecordReport}
     * @throws ConfigException from the clients' own settings
     */
    public ReplayEngine(ReplayConfig config, Mode mode, ReplayListener listener) {
        this(config, mode, listener, Time.SYSTEM, TxnSendProducer::new);
    }

    /**
     * For tests: {@code time} is the clock the speed limits wait on, {@code producers} builds each producer of a
     * writing replay from its settings.
     */
    ReplayEngine(ReplayConfig config, Mode mode, ReplayListener listener, Time time,
                 Function<Map<String, Object>, TxnSendProducer<byte[], byte[]>> producers) {
        this.config = config;
        this.listener = listener;
        this.topics = new ReplayTopics(config);
        this.range = new DeadLetterRange(config);
        this.batches = new ThrottledBatches(config, topics, range, time);
        this.writer = mode == Mode.DRY_RUN ? Optional.empty()
                : Optional.of(new ReplayTransactions(config, topics, listener, producers));
    }

    /**
     * Decides every dead letter of the range as a replay of {@code config} would (the same filters, destination rule
     * and already-replayed check), writing nothing, not even progress, and counts them per destination topic. Reads
     * read_committed; stops when {@code limit} runs out ({@link DryRunReport#complete()} is then false).
     *
     * @throws ConfigException when the dead-letter topic does not exist
     * @throws KafkaException when the cluster cannot be read
     */
    public static DryRunReport dryRun(ReplayConfig config, Duration limit) {
        Instant deadline = Instant.now().plus(limit);
        try (ReplayEngine engine = new ReplayEngine(config, Mode.DRY_RUN, ReplayListener.NONE)) {
            ReplayProgress progress = engine.start();
            while (!progress.finished() && Instant.now().isBefore(deadline)) {
                progress = engine.step();
            }
            return engine.dryRunReport();
        }
    }

    /** In a dry run, what it decided so far: per destination topic and counts. */
    public DryRunReport dryRunReport() {
        return dryRunTally.report(progress);
    }

    /**
     * Fences an older instance of this replay and loads its committed progress, or captures the range (the
     * dead-letter topic's current start and read_committed end offsets, bounded by the offset filters,
     * {@link OffsetSelection#bound}, and by {@code replay.until.offsets}, {@link UntilOffsets}) and commits it as the
     * first progress, unless a RUNNING replay of the topic overlaps it ({@link #claim}).
     * Creates the progress and parking topics when missing (the progress topic with one partition, compacted).
     *
     * @throws ReplayOverlapException when another RUNNING replay of the topic overlaps the range: nothing written
     * @throws ConfigException when the dead-letter topic does not exist, the progress topic is not of one partition
     *                         and compacted, its other replays' written ranges pass
     *                         {@code replay.written.ranges.max}, or the replay id belongs to a replay of
     *                         another dead-letter topic, or to an unfinished one of a topic deleted and created again
     *                         under this name since
     */
    public ReplayProgress start() {
        List<TopicPartition> partitions = range.partitions();
        if (writer.isPresent()) {
            topics.prepare(partitions.size());
            writer.get().init();
        }
        Uuid dlqTopicId = topics.dlqTopicId();
        Map<String, ReplayProgress> replays = readReplays(!config.replayAgain());
        progress = writer.isPresent() ? replays.get(config.replayId()) : null;
        ProgressChecks.requireResumable(config, Optional.ofNullable(progress), dlqTopicId);
        if (progress == null && writer.isPresent()) {
            replays = claim(writer.get(), range.capture(topics, partitions, dlqTopicId), replays.values());
        } else if (progress == null) {
            progress = range.capture(topics, partitions, dlqTopicId);
        }
        plan = RecordPlan.of(config, config.replayAgain() ? WrittenOffsets.NONE
                : ProgressChecks.alreadyReplayed(config, replays.values(), dlqTopicId), topics.partitionCounts());
        range.open(partitions, progress);
        return progress;
    }

    /**
     * Commits {@code captured} as this replay's first progress unless another RUNNING replay of the dead-letter topic
     * overlaps it ({@link RunningReplays}): refused before anything is written when the replays read at start show
     * one; and, since two replays may start at once, checked again on the progress topic read after the commit. Of
     * two replays committed one after the other, the later one's read sees the earlier one; one that sees an
     * overlapping replay then commits itself as CANCELLED (nothing of its range written) and is refused. So two
     * overlapping replays never both run (at worst, both starting at once, both are refused).
     *
     * @return the replays read after the commit (the progress is committed)
     * @throws ReplayOverlapException naming the running replay and how to resume or cancel it
     */
    private Map<String, ReplayProgress> claim(ReplayTransactions w, ReplayProgress captured,
                                              Collection<ReplayProgress> replays) {
        RunningReplays.refuseOverlap(config, captured, replays, false);
        progress = w.commitAlone(captured);
        Map<String, ReplayProgress> after = readReplays(!config.replayAgain());
        try {
            RunningReplays.refuseOverlap(config, progress, after.values(), true);
        } catch (ReplayOverlapException e) {
            try {
                cancel();
            } catch (RuntimeException notCancelled) {
                e.addSuppressed(notCancelled);
            }
            throw e;
        }
        return after;
    }

    /**
     * Refuses, as {@link #start()} would, a replay of {@code config} whose range (captured now) overlaps that of a
     * RUNNING replay of the same dead-letter topic in its progress topic; writes nothing and reads the progress topic
     * without waiting for transactions still open on it. For an entry point that creates a replay elsewhere (the
     * monitor, before it creates a replay connector); the replay's own start checks again.
     *
     * @throws ReplayOverlapException naming the running replay and how to resume or cancel it
     * @throws ConfigException when the dead-letter topic does not exist
     * @throws KafkaException when the cluster cannot be read
     */
    public static void refuseOverlap(ReplayConfig config) {
        try (ReplayEngine engine = new ReplayEngine(config, Mode.DRY_RUN, ReplayListener.NONE)) {
            ReplayProgress captured = engine.range.capture(engine.topics, engine.range.partitions(),
                    engine.topics.dlqTopicId());
            RunningReplays.refuseOverlap(config, captured, engine.readReplays(false).values(), false);
        }
    }

    /**
     * Reads up to {@code replay.batch.size} dead letters of the range and writes what they become in one transaction
     * with the progress. Returns the progress, unchanged when nothing was read (nothing new committed yet) or when
     * the broker rejected records of the batch (they are dead-lettered when the next step reads the batch again).
     *
     * <p>With speed limits, the step first waits (at most {@link ReplayThrottle#MAX_WAIT}, no transaction open) until
     * the batches written so far are within them, and returns the progress unchanged when that is not enough; a batch
     * holds at most one second's worth of the limits, the rest read again by the next step.
     *
     * <p>Right after resuming from an instance that died with a transaction open, a failure of the new producer's
     * first transaction while that transaction is being ended, or later an InvalidTxnStateException or
     * InvalidProducerEpochException when no other instance of this replay has started since, is met with a new
     * producer (see {@link ProducerRestarts}, at most {@value #MAX_PRODUCER_RESTARTS} times in a row without a
     * commit): the step then returns the committed progress unchanged.
     *
     * @throws ReplayTakenOverException when a newer instance of this replay fenced this one: close this engine
     * @throws ConfigException naming {@code replay.id} when the dead-letter topic was deleted (and maybe created
     *         again) since the range was captured, or naming {@code replay.written.ranges.max} when the batch would
     *         pass it; nothing of the batch is written
     * @throws KafkaException after aborting the transaction; on a retriable one (a TimeoutException) call again. A
     *         commit whose answer does not come within the producer's {@code max.block.ms} throws Kafka's
     *         TimeoutException and is not aborted (the coordinator may still commit it): the next step calls
     *         {@code commitTransaction} again first (Kafka's producer allows nothing else until it knows), and goes on
     *         from the progress that commit wrote, or, when it failed, as after any failed commit
     */
    public ReplayProgress step() {
        if (progress == null) {
            throw new IllegalStateException("start() the replay before step()");
        }
        if (progress.finished()) {
            return progress;
        }
        if (writer.isEmpty()) {
            List<ConsumerRecord<byte[], byte[]>> batch = range.poll(progress);
            Map<Integer, Long> next = range.positions(progress);
            if (!batch.isEmpty() || !next.equals(progress.nextOffsets())) {
                progress = dryRunTally.decide(progress, batch, next, plan, listener);
            }
            return progress;
        }
        Optional<ThrottledBatches.Batch> batch = batches.next(progress, plan);
        return batch.isEmpty() ? progress : write(writer.get(), batch.get());
    }

    /**
     * Commits the progress as CANCELLED (unless already finished): nothing more is written under this id. A commit
     * whose answer had not come in time is settled first, so the CANCELLED progress is built on what it committed.
     */
    public ReplayProgress cancel() {
        if (progress != null && !progress.finished() && writer.isPresent()) {
            progress = writer.get().settled(progress);
        }
        if (progress != null && !progress.finished()) {
            ReplayProgress cancelled = progress.withState(ReplayState.CANCELLED, Instant.now());
            progress = writer.map(w -> w.commitAlone(cancelled)).orElse(cancelled);
        }
        return progress;
    }

    /**
     * Cancels this replay without reading its dead-letter topic, which may be gone; use instead of {@link #start()}.
     * Fences any instance of the replay still running (its open transaction is aborted), then commits its progress as
     * CANCELLED; when it committed none yet, a CANCELLED progress with an empty range, so that an instance started
     * later writes nothing. A finished replay's progress is answered as it is. Creates the progress topic when
     * missing.
     *
     * @throws ConfigException when the replay id belongs to a replay of another dead-letter topic
     * @throws KafkaException when the progress cannot be read or committed
     */
    public ReplayProgress fenceAndCancel() {
        ReplayTransactions w = writer.orElseThrow(() -> new IllegalStateException("a dry run cancels nothing"));
        topics.createProgressTopic();
        w.init();
        ReplayProgress committed = readReplays(false).get(config.replayId());
        ProgressChecks.requireOfThisTopic(config, Optional.ofNullable(committed), "");
        progress = committed != null ? committed
                : ReplayProgress.unread(config.replayId(), config.dlqTopic(), Instant.now());
        return cancel();
    }

    /** The progress as last committed (or, in a dry run, decided); null before {@link #start()}. */
    public ReplayProgress progress() {
        return progress;
    }

    @Override
    public void close() {
        writer.ifPresent(ReplayTransactions::close);
        range.close();
        topics.close();
    }

    /** Writes {@code batch} ({@link ReplayTransactions#write}); reads again from the progress when not committed. */
    private ReplayProgress write(ReplayTransactions w, ThrottledBatches.Batch batch) {
        ReplayTransactions.Written written;
        try {
            written = w.write(progress, batch.planned(), batch.next());
        } catch (RuntimeException e) {
            range.rewind(progress);
            throw e;
        }
        progress = written.progress();
        if (!written.committed()) {
            range.rewind(progress);
        }
        return progress;
    }

    /** Every replay's latest progress ({@link ReplayTopics#readReplays}); in a write, once open transactions end. */
    private Map<String, ReplayProgress> readReplays(boolean othersRanges) {
        return topics.readReplays(othersRanges, writer.isPresent());
    }
}
