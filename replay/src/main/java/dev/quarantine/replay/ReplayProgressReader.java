package dev.quarantine.replay;

import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.RecordPositions;

/**
 * Reads the latest committed progress of replays, while they run or after: what the monitor's
 * {@code GET /dead-letters/{topic}/replays[/{id}]} reads, and the replay itself when it starts (its own progress to
 * resume from, and what finished replays of its dead-letter topic wrote). The one reader of the progress topic.
 *
 * <p>Reads the whole progress topic read_committed (it is compacted: one record per replay, plus the recent ones, and
 * the segment records holding a replay's sealed written ranges, {@link ProgressFormat}). A progress from {@link #latest}
 * and {@link #replaysOf} holds its open written ranges only ({@link WrittenOffsets#segments()} says how many segment
 * records hold the others), so that readers of states and counts (the monitor) never hold a replay's ranges; a replay
 * starting reads the segments of the other replays of its dead-letter topic, at most {@code replay.written.ranges.max}
 * ranges ({@link #awaitAll}, and a dry run {@link #allNow}; {@link ReadBack}, {@link SegmentsRead}). The replays check
 * that the topic has one partition, so a progress record and the segment records written before it in its
 * transaction are read together.
 * A read_committed reader stops at the first transaction still open on a partition, whichever replay it belongs to;
 * {@link #latest} answers at once from what lies before it. Not thread-safe; one reader per thread, closed by its
 * owner.
 */
public final class ReplayProgressReader implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplayProgressReader.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Admin admin;
    private final String topic;
    private final Duration timeout;

    /**
     * @param clientConfigs consumer settings (at least {@code bootstrap.servers}); isolation, group and
     *                      deserializers are set here
     * @param progressTopic {@code replay.progress.topic.name}
     * @param timeout       how long one {@link #latest} may take
     */
    public ReplayProgressReader(Map<String, Object> clientConfigs, String progressTopic, Duration timeout) {
        Map<String, Object> configs = new HashMap<>(ReplayClients.known(clientConfigs, ConsumerConfig.configNames()));
        configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        configs.put(ConsumerConfig.CLIENT_ID_CONFIG, "quarantine-replay-progress-" + UUID.randomUUID());
        configs.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        configs.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(configs, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.admin = Admin.create(ReplayClients.known(clientConfigs, AdminClientConfig.configNames()));
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
        return Optional.ofNullable(read(IsolationLevel.READ_COMMITTED, Optional.empty()).get(replayId));
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
        return read(IsolationLevel.READ_COMMITTED, Optional.empty()).values().stream()
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
        return read(IsolationLevel.READ_UNCOMMITTED, readBack);
    }

    /**
     * The latest committed progress of every replay as {@link #latest} reads it, without waiting for transactions
     * still open; the other replays of {@code readBack}'s dead-letter topic with the ranges of their segment records
     * too: what a dry run checks as already replayed, as the replay would.
     *
     * @throws ConfigException naming {@code replay.written.ranges.max} when those replays hold more ranges
     */
    SortedMap<String, ReplayProgress> allNow(Optional<ReadBack> readBack) {
        return read(IsolationLevel.READ_COMMITTED, readBack);
    }

    /**
     * Reads read_committed up to the end offsets that a reader with {@code upTo} sees now; the latest progress per
     * replay id. A record that is not a progress record, or whose key is not its replay id, is left out (logged by
     * position).
     */
    private SortedMap<String, ReplayProgress> read(IsolationLevel upTo, Optional<ReadBack> readBack) {
        Instant deadline = Instant.now().plus(timeout);
        SortedMap<String, ReplayProgress> latest = new TreeMap<>();
        SegmentsRead segments = new SegmentsRead(readBack);
        List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        if (partitions.isEmpty()) {
            return latest;
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = ReplayClients.endOffsets(admin, partitions, upTo, timeout);
        while (!reached(end)) {
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException("Could not read progress topic " + topic + " up to " + end + " within "
                        + timeout.toMillis() + " ms (" + ReplayConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG + "): a"
                        + " transaction on it is still open");
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                add(latest, segments, record);
            }
        }
        if (readBack.isPresent()) {
            segments.requireWithinLimit(latest.values());
            latest.replaceAll((id, progress) -> !segments.isOther(progress.dlqTopic(), id) ? progress
                    : withSegments(progress, segments.of(id)));
        }
        return latest;
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

    private static void add(Map<String, ReplayProgress> latest, SegmentsRead segments,
                            ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null) {
            return;
        }
        String id = new String(record.key(), StandardCharsets.UTF_8);
        if (ProgressFormat.isSegmentKey(id)) {
            segments.add(id, record);
            return;
        }
        if (record.value() == null) {
            latest.remove(id);
            return;
        }
        try {
            ReplayProgress progress = ProgressFormat.read(record.value());
            if (progress.replayId().equals(id)) {
                latest.put(id, progress);
            } else {
                log.warn("Progress record at {} is keyed by another replay id than its own; left out",
                        RecordPositions.of(record.topic(), record.partition(), record.offset()));
            }
        } catch (IllegalArgumentException e) {
            log.warn("Record at {} is not a replay progress record; left out",
                    RecordPositions.of(record.topic(), record.partition(), record.offset()));
        }
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    @Override
    public void close() {
        consumer.close();
        admin.close();
    }
}
