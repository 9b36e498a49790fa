package dev.quarantine.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger log = LoggerFactory.getLogger(ReplayEngine.class);

    /** Whether the engine writes. */
    public enum Mode { WRITE, DRY_RUN }

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    /** New producers a resuming replay may try while its dead instance's transaction is being ended. */
    static final int MAX_PRODUCER_RESTARTS = 5;

    private final ReplayConfig config;
    private final ReplayListener listener;
    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Mode mode;
    private final ProducerRestarts restarts = new ProducerRestarts(MAX_PRODUCER_RESTARTS);
    private final ReplayThrottle throttle;
    private final Map<Integer, Long> previousRead = new HashMap<>();
    private final TopicCounts wouldWrite = new TopicCounts();
    private final TopicCounts wouldRefuse = new TopicCounts();
    private Optional<ReplayWriter> writer;
    private boolean committedSinceInit;
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
        this(config, mode, listener, Time.SYSTEM);
    }

    /** For tests: {@code time} is the clock the speed limits wait on. */
    ReplayEngine(ReplayConfig config, Mode mode, ReplayListener listener, Time time) {
        this.config = config;
        this.throttle = ReplayThrottle.of(config, time);
        this.listener = listener;
        this.mode = mode;
        Map<String, Object> clients = config.clientConfigs();
        this.admin = Admin.create(ReplayClients.known(clients, AdminClientConfig.configNames()));
        this.consumer = new KafkaConsumer<>(ReplayClients.consumerConfigs(clients, config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.writer = mode == Mode.DRY_RUN ? Optional.empty() : Optional.of(newWriter());
    }

    /**
     * Decides every dead letter of the range as a replay of {@code config} would (the same filters, destination rule
     * and already-replayed check), writing nothing, not even progress, and counts them per destination topic. Reads
     * read_committed; stops when {@code limit} runs out ({@link DryRunReport#complete()} is then false).
     *
     * @throws ConfigException when the dead-letter topic does not exist
     * @throws org.apache.kafka.common.KafkaException when the cluster cannot be read
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
        return DryRunReport.of(wouldWrite.asMap(), wouldRefuse.asMap(), progress);
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
        List<TopicPartition> partitions = dlqPartitions();
        if (writer.isPresent()) {
            createTopics(partitions.size());
            ReplayClients.requireProgressTopic(admin, config.progressTopic(), config.progressReadTimeout());
            writer.get().init();
        }
        Uuid dlqTopicId = ReplayClients.topicId(admin, config.dlqTopic(), config.progressReadTimeout());
        Map<String, ReplayProgress> replays = readReplays(!config.replayAgain());
        progress = writer.isPresent() ? replays.get(config.replayId()) : null;
        if (progress != null && !progress.dlqTopic().equals(config.dlqTopic())) {
            throw new ConfigException(ReplayConfig.REPLAY_ID_CONFIG, config.replayId(), "is the id of a replay of "
                    + progress.dlqTopic() + ", not of " + config.dlqTopic() + ": choose another id");
        }
        if (progress != null && !progress.finished() && !progress.dlqTopicId().equals(dlqTopicId)) {
            throw new ConfigException(ReplayConfig.REPLAY_ID_CONFIG, config.replayId(), "is the id of a replay of a"
                    + " topic " + config.dlqTopic() + " deleted since (topic id " + progress.dlqTopicId() + ", now "
                    + dlqTopicId + "): its offsets say nothing of the new topic; choose another id");
        }
        if (progress == null && writer.isPresent()) {
            replays = claim(writer.get(), capture(partitions, dlqTopicId), replays.values());
            committedSinceInit = true;
        } else if (progress == null) {
            progress = capture(partitions, dlqTopicId);
        }
        plan = new RecordPlan(config.filter(), config.replayAgain() ? WrittenOffsets.NONE
                : alreadyReplayed(replays, dlqTopicId),
                new DestinationResolver(config.destination()), DestinationRule.of(config),
                new PartitionCountCache(admin, config.progressReadTimeout()), config.forceTruncated());
        consumer.assign(partitions);
        rewind();
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
    private Map<String, ReplayProgress> claim(ReplayWriter w, ReplayProgress captured,
                                              Collection<ReplayProgress> replays) {
        refuseOverlap(captured, replays, false);
        progress = commitAlone(w, captured);
        Map<String, ReplayProgress> after = readReplays(!config.replayAgain());
        try {
            refuseOverlap(progress, after.values(), true);
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

    private void refuseOverlap(ReplayProgress candidate, Collection<ReplayProgress> replays, boolean cancelled) {
        RunningReplays.overlapping(candidate, replays).ifPresent(running -> {
            throw new ReplayOverlapException(config, running,
                    RunningReplays.sharedPartition(candidate, running).orElseThrow(), cancelled);
        });
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
            List<TopicPartition> partitions = engine.dlqPartitions();
            Uuid dlqTopicId = ReplayClients.topicId(engine.admin, config.dlqTopic(), config.progressReadTimeout());
            engine.refuseOverlap(engine.capture(partitions, dlqTopicId), engine.readReplays(false).values(), false);
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
     * first transaction while that transaction is being ended is met with a new producer (see
     * {@link ProducerRestarts}, at most {@value #MAX_PRODUCER_RESTARTS} times): the step then returns the committed
     * progress unchanged.
     *
     * @throws ReplayTakenOverException when a newer instance of this replay fenced this one: close this engine
     * @throws ConfigException naming {@code replay.id} when the dead-letter topic was deleted (and maybe created
     *         again) since the range was captured, or naming {@code replay.written.ranges.max} when the batch would
     *         pass it; nothing of the batch is written
     * @throws org.apache.kafka.common.KafkaException after aborting the transaction; on a retriable one (a
     *         TimeoutException) call again
     */
    public ReplayProgress step() {
        if (progress == null) {
            throw new IllegalStateException("start() the replay before step()");
        }
        if (progress.finished()) {
            return progress;
        }
        if (writer.isPresent() && !throttle.awaitPaid()) {
            return progress;
        }
        List<ConsumerRecord<byte[], byte[]>> batch = pollRange();
        if (writer.isEmpty()) {
            Map<Integer, Long> next = positions();
            return batch.isEmpty() && next.equals(progress.nextOffsets()) ? progress : dryRun(batch, next);
        }
        List<Planned> planned = withinLimits(batch.stream().map(this::planned).toList());
        Map<Integer, Long> next = positions();
        if (planned.isEmpty() && next.equals(progress.nextOffsets())) {
            return progress;
        }
        if (!planned.isEmpty()) {
            requireSameDeadLetterTopic();
        }
        return write(writer.get(), planned, next);
    }

    /** A dead letter read, and what the replay does with it. */
    private record Planned(ConsumerRecord<byte[], byte[]> record, DeadLetterView letter, RecordPlan.Decision decision) {
        boolean written() {
            return decision.target().isPresent();
        }
    }

    private Planned planned(ConsumerRecord<byte[], byte[]> record) {
        DeadLetterView letter = DeadLetterView.of(record);
        return new Planned(record, letter, plan.decide(letter));
    }

    /** The part of {@code batch} that one second's worth of the speed limits holds; the rest is read again. */
    private List<Planned> withinLimits(List<Planned> batch) {
        if (!throttle.limited()) {
            return batch;
        }
        int keep = throttle.keep(batch.stream().mapToLong(p -> p.written() ? ReplayThrottle.bytesOf(p.record())
                : -1).toArray());
        Map<Integer, Long> readAgain = new HashMap<>();
        batch.subList(keep, batch.size()).forEach(p -> readAgain.putIfAbsent(p.record().partition(),
                p.record().offset()));
        readAgain.forEach((partition, offset) -> consumer.seek(tp(partition), offset));
        return batch.subList(0, keep);
    }

    /** Commits the progress as CANCELLED (unless already finished): nothing more is written under this id. */
    public ReplayProgress cancel() {
        if (progress != null && !progress.finished()) {
            ReplayProgress cancelled = progress.withState(ReplayState.CANCELLED, Instant.now());
            progress = writer.map(w -> commitAlone(w, cancelled)).orElse(cancelled);
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
     * @throws org.apache.kafka.common.KafkaException when the progress cannot be read or committed
     */
    public ReplayProgress fenceAndCancel() {
        ReplayWriter w = writer.orElseThrow(() -> new IllegalStateException("a dry run cancels nothing"));
        createProgressTopic();
        w.init();
        ReplayProgress committed = readReplays(false).get(config.replayId());
        if (committed != null && !committed.dlqTopic().equals(config.dlqTopic())) {
            throw new ConfigException(ReplayConfig.REPLAY_ID_CONFIG, config.replayId(), "is the id of a replay of "
                    + committed.dlqTopic() + ", not of " + config.dlqTopic());
        }
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
        writer.ifPresent(ReplayWriter::close);
        consumer.close();
        admin.close();
    }

    private ReplayProgress write(ReplayWriter w, List<Planned> batch, Map<Integer, Long> next) {
        List<RecordReport> reports = new ArrayList<>();
        ReplayCounts counts = progress.counts();
        WrittenOffsets written = progress.written();
        Map<Integer, Long> read = new HashMap<>(previousRead);
        List<Planned> writing = batch.stream().filter(Planned::written).toList();
        throttle.charge(writing.size(), writing.stream().mapToLong(p -> ReplayThrottle.bytesOf(p.record())).sum());
        w.begin();
        try {
            for (Planned planned : batch) {
                ConsumerRecord<byte[], byte[]> record = planned.record();
                DeadLetterView letter = planned.letter();
                RecordPlan.Decision decision = planned.decision();
                RecordReport report = decision.target().map(target -> w.replay(letter, target))
                        .orElseGet(() -> skipped(letter, decision));
                reports.add(report);
                counts = counts.plus(report.outcome());
                if (report.outcome().written()) {
                    written = written.plus(record.partition(), record.offset(), read.get(record.partition()));
                }
                read.put(record.partition(), record.offset());
            }
            requireWithinRangeLimit(written);
            progress = w.commit(progress.advanced(next, counts, written, Instant.now()));
            committedSinceInit = true;
            previousRead.putAll(read);
        } catch (ReplayWriter.BatchRejected e) {
            rewind();
            return progress;
        } catch (RuntimeException e) {
            return afterFailure(w, w.abort(e));
        }
        reports.forEach(listener::onRecord);
        return progress;
    }

    /**
     * Asked after a poll and before its batch is written: the consumer is assigned by name, so once the dead-letter
     * topic is deleted and created again it would read the new topic at the old range's offsets.
     *
     * @throws ConfigException naming {@code replay.id} when the topic by this name is not the one the replay captured
     *                         its range from (deleted, or created again since)
     */
    private void requireSameDeadLetterTopic() {
        Optional<Uuid> now;
        try {
            now = Optional.of(ReplayClients.topicId(admin, config.dlqTopic(), config.progressReadTimeout()));
        } catch (UnknownTopicOrPartitionException e) {
            now = Optional.empty();
        }
        if (!now.equals(Optional.of(progress.dlqTopicId()))) {
            throw new ConfigException(ReplayConfig.REPLAY_ID_CONFIG, config.replayId(), "replay of "
                    + config.dlqTopic() + " stopped: the topic was deleted" + (now.isPresent() ? " and created again"
                    + " (topic id " + progress.dlqTopicId() + ", now " + now.get() + ")" : "") + " since the replay"
                    + " captured its range, whose offsets say nothing of a new topic; nothing of it was written."
                    + " Cancel this replay, and start a new one for the new topic");
        }
    }

    /**
     * @throws ConfigException naming {@code replay.written.ranges.max} when {@code written} holds more ranges: the
     *                         caller aborts the batch, so the committed progress stays exact
     */
    private void requireWithinRangeLimit(WrittenOffsets written) {
        if (written.totalCount() > config.writtenRangesMax()) {
            throw new ConfigException(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG, config.writtenRangesMax(), "replay "
                    + config.replayId() + " stopped: the batch after its committed progress would make "
                    + written.totalCount() + " ranges of written dead letters, more than the limit. Nothing of that"
                    + " batch was committed; start the replay again with a higher "
                    + ReplayConfig.WRITTEN_RANGES_MAX_CONFIG + " to resume from its committed progress, or cancel it");
        }
    }

    /** See {@link ProducerRestarts}: a new producer, the error thrown, or the takeover said. */
    private ReplayProgress afterFailure(ReplayWriter w, RuntimeException error) {
        rewind();
        switch (restarts.after(error, committedSinceInit)) {
            case RESTART -> {
                log.warn("Replay {}: the first transaction after resuming failed while the transaction of the replay's"
                        + " previous instance was being ended ({}); resuming again with a new producer ({} of {})",
                        config.replayId(), error.toString(), restarts.restarts(), MAX_PRODUCER_RESTARTS);
                restartWriter(w);
                return progress;
            }
            case TAKEN_OVER -> throw new ReplayTakenOverException(config.replayId(), error);
            case GIVE_UP -> throw new KafkaException("Replay " + config.replayId() + " could not resume: "
                    + MAX_PRODUCER_RESTARTS + " new producers in a row failed their first transaction; its committed"
                    + " progress is kept, start it again to resume", error);
            default -> throw error;
        }
    }

    /** Replaces the producer with a new one, fencing the old, and reloads the committed progress. */
    private void restartWriter(ReplayWriter old) {
        old.close();
        ReplayWriter fresh = newWriter();
        writer = Optional.of(fresh);
        fresh.init();
        committedSinceInit = false;
        ReplayProgress committed = readReplays(false).get(config.replayId());
        if (committed != null) {
            progress = committed;
        }
        previousRead.clear();
        rewind();
    }

    private ReplayWriter newWriter() {
        return new ReplayWriter(new TxnSendProducer<>(ReplayClients.producerConfigs(config.clientConfigs(), config)),
                config);
    }

    private static RecordReport skipped(DeadLetterView letter, RecordPlan.Decision decision) {
        return new RecordReport(letter.position(), decision.outcome(), decision.topic(), letter.errorClass(),
                decision.reason());
    }

    private ReplayProgress dryRun(List<ConsumerRecord<byte[], byte[]>> batch, Map<Integer, Long> next) {
        ReplayCounts counts = progress.counts();
        for (ConsumerRecord<byte[], byte[]> record : batch) {
            DeadLetterView letter = DeadLetterView.of(record);
            RecordPlan.Decision decision = plan.decide(letter);
            Optional<String> place = decision.target().map(t -> t.topic() + (t.partition() == null ? ""
                    : "-" + t.partition())).or(decision::topic);
            listener.onRecord(new RecordReport(letter.position(), decision.outcome(), place, letter.errorClass(),
                    decision.reason()));
            decision.target().ifPresent(t -> wouldWrite.add(t.topic()));
            if (decision.outcome() == Outcome.REFUSED_DESTINATION) {
                decision.topic().ifPresent(wouldRefuse::add);
            }
            counts = counts.plus(decision.outcome());
        }
        progress = progress.advanced(next, counts, WrittenOffsets.NONE, Instant.now());
        return progress;
    }

    /**
     * The latest progress of every replay in the progress topic; with {@code othersRanges}, the other replays of this
     * dead-letter topic with their sealed written ranges (at most {@code replay.written.ranges.max}); in a write,
     * after waiting for the transactions open on it to end (this replay's own older instance is fenced by then), in a
     * dry run without waiting. This replay's own sealed ranges are never read back: it needs only their count.
     */
    private Map<String, ReplayProgress> readReplays(boolean othersRanges) {
        Optional<ReplayProgressReader.ReadBack> readBack = othersRanges ? Optional.of(new ReplayProgressReader.ReadBack(
                config.dlqTopic(), config.replayId(), config.writtenRangesMax())) : Optional.empty();
        try (ReplayProgressReader reader = new ReplayProgressReader(config.clientConfigs(), config.progressTopic(),
                config.progressReadTimeout())) {
            return mode == Mode.WRITE ? reader.awaitAll(readBack) : reader.allNow(readBack);
        }
    }

    /**
     * What the finished replays of this dead-letter topic (other than this one) wrote: of the topic by this name and
     * {@code dlqTopicId}, not of an earlier topic deleted under the same name.
     */
    private WrittenOffsets alreadyReplayed(Map<String, ReplayProgress> replays, Uuid dlqTopicId) {
        WrittenOffsets all = WrittenOffsets.NONE;
        for (ReplayProgress other : replays.values()) {
            if (other.finished() && other.dlqTopic().equals(config.dlqTopic())
                    && other.dlqTopicId().equals(dlqTopicId)
                    && !other.replayId().equals(config.replayId())) {
                all = all.union(other.written());
            }
        }
        return all;
    }

    private List<ConsumerRecord<byte[], byte[]>> pollRange() {
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
            if (record.offset() < progress.endOffsets().get(record.partition())) {
                batch.add(record);
            }
        }
        return batch;
    }

    /** Per partition, the next offset to read, never past the end of the range. */
    private Map<Integer, Long> positions() {
        Map<Integer, Long> next = new TreeMap<>();
        progress.endOffsets().forEach((partition, end) ->
                next.put(partition, Math.min(end, consumer.position(tp(partition)))));
        return next;
    }

    /** Seeks every partition to the committed next offset; pauses those whose range is read. */
    private void rewind() {
        List<TopicPartition> done = new ArrayList<>();
        progress.nextOffsets().forEach((partition, offset) -> {
            consumer.seek(tp(partition), offset);
            if (offset >= progress.endOffsets().get(partition)) {
                done.add(tp(partition));
            }
        });
        consumer.resume(consumer.assignment());
        consumer.pause(done);
    }

    private ReplayProgress capture(List<TopicPartition> partitions, Uuid dlqTopicId) {
        Map<Integer, Long> start = new HashMap<>();
        consumer.beginningOffsets(partitions, config.progressReadTimeout())
                .forEach((tp, offset) -> start.put(tp.partition(), offset));
        Map<Integer, Long> end = new HashMap<>();
        ReplayClients.endOffsets(admin, partitions, IsolationLevel.READ_COMMITTED, config.progressReadTimeout())
                .forEach((tp, offset) -> end.put(tp.partition(), offset));
        OffsetSelection.Bounds selected = OffsetSelection.of(config).bound(start, end);
        Map<Integer, Long> range = config.untilOffsets().<Map<Integer, Long>>map(until ->
                UntilOffsets.bound(selected.start(), selected.end(), until)).orElse(selected.end());
        return ReplayProgress.started(config.replayId(), config.dlqTopic(), dlqTopicId, selected.start(), range,
                Instant.now());
    }

    private static ReplayProgress commitAlone(ReplayWriter w, ReplayProgress progress) {
        w.begin();
        try {
            return w.commit(progress);
        } catch (RuntimeException e) {
            throw w.abort(e);
        }
    }

    private List<TopicPartition> dlqPartitions() {
        List<TopicPartition> partitions = consumer.partitionsFor(config.dlqTopic(), config.progressReadTimeout())
                .stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        if (partitions.isEmpty()) {
            throw new ConfigException(ReplayConfig.DLQ_TOPIC_CONFIG, config.dlqTopic(), "the topic does not exist");
        }
        return partitions;
    }

    private void createTopics(int dlqPartitions) {
        createProgressTopic();
        ReplayClients.createIfMissing(admin, new NewTopic(config.parkingTopic(), Optional.of(dlqPartitions),
                Optional.empty()), ReplayConfig.PARKING_TOPIC_CONFIG, config.progressReadTimeout());
    }

    private void createProgressTopic() {
        ReplayClients.createIfMissing(admin, new NewTopic(config.progressTopic(), Optional.of(1), Optional.empty())
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)),
                ReplayConfig.PROGRESS_TOPIC_CONFIG, config.progressReadTimeout());
    }

    private TopicPartition tp(int partition) {
        return new TopicPartition(config.dlqTopic(), partition);
    }
}
