package dev.quarantine.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.progress.CompactedTopicReader;
import dev.quarantine.txn.progress.ReadEnd;
import dev.quarantine.txn.progress.ReadHeldBackException;

/**
 * Reads the latest committed progress of replays, while they run or after: what the monitor's
 * {@code GET /dead-letters/{topic}/replays[/{id}]} reads, and the replay itself when it starts (its own progress to
 * resume from, and what finished replays of its dead-letter topic wrote). The one reader of the progress topic, through
 * the project's one reader of compacted topics ({@link CompactedTopicReader}: last record per key, tombstones, a
 * record of an unknown format refused naming its position).
 *
 * <p>Reads the whole progress topic read_committed (it is compacted: one record per replay, plus the recent ones, and
 * the segment records holding a replay's sealed written ranges, {@link ProgressFormat}). A progress from {@link #latest}
 * and {@link #replaysOf} holds its open written ranges only ({@link WrittenOffsets#segments()} says how many segment
 * records hold the others), so that readers of states and counts (the monitor) never hold a replay's ranges; a replay
 * starting reads the segments of the other replays of its dead-letter topic, at most {@code replay.written.ranges.max}
 * ranges ({@link #awaitAll}, and a dry run {@link #allNow}; {@link ReadBack}, {@link SegmentsRead}). The replays check
 * that the topic has one partition, so a progress record and the segment records written before it in its
 * transaction are read together.
 * A read_committed reader stops at the first transaction still open on a partition, whichever replay it belongs to:
 * {@link #latest}, {@link #replaysOf} and {@link #allNow} read up to the last stable offset
 * ({@link ReadEnd#LAST_STABLE_OFFSET}) and answer at once from what lies before it; {@link #awaitAll} reads up to the
 * high watermark ({@link ReadEnd#HIGH_WATERMARK}), waiting for it. Not thread-safe; one reader per thread, closed by its
 * owner.
 */
public final class ReplayProgressReader implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplayProgressReader.class);

    /** Positions of unreadable records of other replays already logged, bounded: a view reads every few seconds. */
    private static final WarnedPositions UNREADABLE_WARNED = new WarnedPositions(log, 1_000);

    private final CompactedTopicReader reader;
    private final Admin admin;
    private final String topic;
    private final Duration timeout;

    /**
     * @param clientConfigs consumer settings (at least {@code bootstrap.servers}); isolation, group and
     *                      deserializers are set by {@link CompactedTopicReader}
     * @param progressTopic {@code replay.progress.topic.name}
     * @param timeout       how long one {@link #latest} may take
     */
    public ReplayProgressReader(Map<String, Object> clientConfigs, String progressTopic, Duration timeout) {
        Map<String, Object> configs = new HashMap<>(clientConfigs);
        configs.put(ConsumerConfig.CLIENT_ID_CONFIG, "quarantine-replay-progress-" + UUID.randomUUID());
        this.admin = Admin.create(ReplayClients.known(clientConfigs, AdminClientConfig.configNames()));
        this.reader = new CompactedTopicReader(configs, admin);
        this.topic = progressTopic;
        this.timeout = timeout;
    }

    /**
     * The latest progress of {@code replayId} committed before any transaction still open on the progress topic:
     * what can be read now, without waiting. It may lag behind (never run ahead of) a progress committed after a
     * transaction that another replay has left open; such a transaction ends within its {@code transaction.timeout.ms}
     * or when that replay restarts. Empty when the replay committed no progress (or the topic does not exist).
     */
    public Optional<ReplayProgress> latest(String replayId) {
        return Optional.ofNullable(read(ReadEnd.LAST_STABLE_OFFSET, Optional.empty(), replayId).get(replayId));
    }

    /**
     * The id {@code topic} has now, empty when it does not exist: it tells whether a progress ({@code dlq.id}) is of
     * the topic by that name now or of one deleted since.
     *
     * @throws org.apache.kafka.common.KafkaException when the cluster cannot be asked
     */
    public Optional<Uuid> topicId(String topic) {
        try {
            return Optional.of(ReplayClients.topicId(admin, topic, timeout));
        } catch (UnknownTopicOrPartitionException e) {
            return Optional.empty();
        }
    }

    /**
     * The latest progress of every replay of {@code dlqTopic} (RUNNING, DONE or CANCELLED), as {@link #latest} reads
     * it: without waiting for transactions still open. Ordered by replay id.
     */
    public List<ReplayProgress> replaysOf(String dlqTopic) {
        return read(ReadEnd.LAST_STABLE_OFFSET, Optional.empty(), null).values().stream()
                .filter(progress -> progress.dlqTopic().equals(dlqTopic)).toList();
    }

    /**
     * What a starting replay reads back of the other replays of its dead-letter topic: the ranges of their segment
     * records, at most {@code maxRanges} of them together with their progress records' open ones
     * ({@code replay.written.ranges.max}). Its own segment records are not read: it needs only what others wrote.
     */
    record ReadBack(String dlqTopic, String replayId, int maxRanges) {
    }

    /**
     * The latest committed progress of every replay, after waiting (up to the timeout) for the transactions open on
     * the progress topic to end: what a replay resumes from, once its own older instance is fenced. The other replays
     * of {@code readBack}'s dead-letter topic come with the ranges of their segment records too: what they wrote
     * (without a read-back, no segment record is read).
     *
     * @throws TimeoutException when a transaction stays open past the timeout
     * @throws ConfigException  naming {@code replay.written.ranges.max} when those replays hold more ranges
     */
    SortedMap<String, ReplayProgress> awaitAll(Optional<ReadBack> readBack) {
        return read(ReadEnd.HIGH_WATERMARK, readBack, readBack.map(ReadBack::replayId).orElse(null));
    }

    /**
     * The latest committed progress of every replay as {@link #latest} reads it, without waiting for transactions
     * still open; the other replays of {@code readBack}'s dead-letter topic with the ranges of their segment records
     * too: what a dry run checks as already replayed, as the replay would.
     *
     * @throws ConfigException naming {@code replay.written.ranges.max} when those replays hold more ranges
     */
    SortedMap<String, ReplayProgress> allNow(Optional<ReadBack> readBack) {
        return read(ReadEnd.LAST_STABLE_OFFSET, readBack, readBack.map(ReadBack::replayId).orElse(null));
    }

    /**
     * The latest progress per replay id, read by the one reader of compacted topics up to {@code end}: the segment
     * records of {@code readBack}'s other replays are kept too (bounded, {@link SegmentsRead}), every other segment
     * record is passed over unread. A record that is not a progress record of this format, or is keyed by another
     * replay id than its own: keyed by {@code ownId} (the replay this read is for), it is refused, naming its
     * position, since answering that replay's older progress, or none, would have it write again what it wrote;
     * keyed otherwise, that key has no value in this read and a WARN names the position once (a stray record, or one
     * of a newer version, must not stop every other replay of the cluster: the review of the one reader).
     */
    private SortedMap<String, ReplayProgress> read(ReadEnd end, Optional<ReadBack> readBack, String ownId) {
        Instant deadline = Instant.now().plus(timeout);
        SegmentsRead segments = new SegmentsRead(readBack);
        List<TopicPartition> partitions = reader.partitionsOf(topic, timeout);
        Map<String, Kept> read;
        try {
            read = reader.read(partitions, end, (key, value, position) -> keptOrLeftOut(key, value, position,
                    segments, ownId), deadline);
        } catch (ReadHeldBackException e) {
            throw new TimeoutException("Could not read progress topic " + topic + " within " + timeout.toMillis()
                    + " ms (" + ReplayConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG + "): " + e.getMessage(), e);
        }
        SortedMap<String, ReplayProgress> latest = new TreeMap<>();
        Map<String, ProgressFormat.SegmentRanges> sealed = new HashMap<>();
        read.forEach((key, kept) -> {
            if (kept.progress() != null) {
                latest.put(key, kept.progress());
            } else {
                sealed.put(key, kept.segment());
            }
        });
        if (readBack.isPresent()) {
            segments.requireWithinLimit(latest.values());
            latest.replaceAll((id, progress) -> !segments.isOther(progress.dlqTopic(), id) ? progress
                    : withSegments(progress, SegmentsRead.byIndex(sealed.values(), id)));
        }
        return latest;
    }

    /** A record kept by a read: a progress record, or a segment record of written ranges (the other is null). */
    private record Kept(ReplayProgress progress, ProgressFormat.SegmentRanges segment) {
    }

    /** {@link #kept}, or for an unreadable record under another key than {@code ownId}: left out, with one WARN. */
    private static Optional<Kept> keptOrLeftOut(String key, byte[] value, String position, SegmentsRead segments,
                                                String ownId) {
        try {
            return kept(key, value, segments);
        } catch (IllegalArgumentException unreadable) {
            if (key.equals(ownId) || ProgressFormat.isSegmentKey(key)) {
                throw unreadable;
            }
            UNREADABLE_WARNED.warnOnce(position, unreadable);
            return Optional.empty();
        }
    }

    private static Optional<Kept> kept(String key, byte[] value, SegmentsRead segments) {
        if (ProgressFormat.isSegmentKey(key)) {
            return segments.read(key, value).map(segment -> new Kept(null, segment));
        }
        ReplayProgress progress = ProgressFormat.read(value);
        if (!progress.replayId().equals(key)) {
            throw new IllegalArgumentException("a progress record of replay " + progress.replayId() + " keyed by"
                    + " another replay id");
        }
        return Optional.of(new Kept(progress, null));
    }

    /** {@code progress} with the ranges of its segments 0 to {@code written.segments} (exclusive). */
    private static ReplayProgress withSegments(ReplayProgress progress,
                                               SortedMap<Integer, Map<Integer, List<WrittenOffsets.Range>>> of) {
        WrittenOffsets written = progress.written();
        if (written.segments() == 0) {
            return progress;
        }
        Map<Integer, List<WrittenOffsets.Range>> sealed = new HashMap<>();
        of.headMap(written.segments()).values().forEach(ranges -> ranges.forEach(
                (partition, r) -> sealed.computeIfAbsent(partition, p -> new ArrayList<>()).addAll(r)));
        int missing = written.segments() - of.headMap(written.segments()).size();
        if (missing > 0) {
            log.warn("Replay {}: {} of its {} segment records of written ranges are missing from the progress topic;"
                    + " later replays write their dead letters again", progress.replayId(), missing,
                    written.segments());
        }
        return progress.withWritten(written.withSealed(sealed));
    }

    @Override
    public void close() {
        reader.close();
        admin.close();
    }
}
