package dev.quarantine.replay;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.replay.ReplayProgressReader.ReadBack;
import dev.quarantine.txn.RecordPositions;

/**
 * The segment records of written ranges that one read of the progress topic keeps: those of the other replays of the
 * read-back's dead-letter topic, none without a read-back. Bounded: once they hold more than the read-back's
 * {@code maxRanges} ranges the read stops ({@link ConfigException} naming {@code replay.written.ranges.max}), so a
 * replay never holds more than that many of other replays' sealed ranges, whatever the topic holds.
 */
final class SegmentsRead {

    private static final Logger log = LoggerFactory.getLogger(SegmentsRead.class);
    private static final int NAMED = 5;

    private final Optional<ReadBack> readBack;
    private final Map<String, SortedMap<Integer, Map<Integer, List<WrittenOffsets.Range>>>> byReplay = new TreeMap<>();
    private long ranges;

    SegmentsRead(Optional<ReadBack> readBack) {
        this.readBack = readBack;
    }

    /** Whether a replay of {@code dlqTopic} with id {@code replayId} is one whose ranges this read keeps. */
    boolean isOther(String dlqTopic, String replayId) {
        return readBack.filter(r -> r.dlqTopic().equals(dlqTopic) && !r.replayId().equals(replayId)).isPresent();
    }

    /** Keeps the segment record keyed {@code key} when it is another replay's of the dead-letter topic. */
    void add(String key, ConsumerRecord<byte[], byte[]> record) {
        if (readBack.isEmpty() || record.value() == null) {
            return;
        }
        try {
            ProgressFormat.SegmentRanges segment = ProgressFormat.readSegment(key, record.value());
            if (isOther(segment.dlqTopic(), segment.replayId())) {
                byReplay.computeIfAbsent(segment.replayId(), id -> new TreeMap<>()).put(segment.index(),
                        segment.ranges());
                ranges += segment.ranges().values().stream().mapToInt(List::size).sum();
                requireWithin(ranges, byReplay.keySet());
            }
        } catch (IllegalArgumentException e) {
            log.warn("Record at {} is not a segment record of written ranges; left out",
                    RecordPositions.of(record.topic(), record.partition(), record.offset()));
        }
    }

    /** The segments kept of {@code replayId}, by index. */
    SortedMap<Integer, Map<Integer, List<WrittenOffsets.Range>>> of(String replayId) {
        return byReplay.getOrDefault(replayId, new TreeMap<>());
    }

    /** Checks the kept ranges and the open ones of the other replays' progress records against the limit. */
    void requireWithinLimit(Collection<ReplayProgress> latest) {
        List<ReplayProgress> others = latest.stream().filter(p -> isOther(p.dlqTopic(), p.replayId())).toList();
        long open = others.stream().mapToLong(p -> p.written().rangeCount()).sum();
        requireWithin(ranges + open, others.stream().filter(p -> p.written().totalCount() > 0)
                .map(ReplayProgress::replayId).toList());
    }

    private void requireWithin(long count, Collection<String> holders) {
        ReadBack r = readBack.orElseThrow();
        if (count > r.maxRanges()) {
            throw new ConfigException(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG, r.maxRanges(), "replay "
                    + r.replayId() + " stopped at its start: the other replays of " + r.dlqTopic() + " ("
                    + String.join(", ", holders.stream().limit(NAMED).toList())
                    + (holders.size() > NAMED ? ", ..." : "") + ") hold more than " + r.maxRanges() + " ranges of"
                    + " written dead letters, which it would read back to skip what they wrote: raise "
                    + ReplayConfig.WRITTEN_RANGES_MAX_CONFIG + ", or set " + ReplayConfig.REPLAY_AGAIN_CONFIG
                    + "=true to read none");
        }
    }
}
