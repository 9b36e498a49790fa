package dev.quarantine.replay;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import org.apache.kafka.common.config.ConfigException;

import dev.quarantine.replay.ReplayProgressReader.ReadBack;

/**
 * The segment records of written ranges that one read of the progress topic keeps: those of the other replays of the
 * read-back's dead-letter topic, none without a read-back (they are then not even parsed). Bounded: once those read
 * hold more than the read-back's {@code maxRanges} ranges the read stops ({@link ConfigException} naming
 * {@code replay.written.ranges.max}), so a replay never holds more than that many of other replays' sealed ranges,
 * whatever the topic holds.
 */
final class SegmentsRead {

    private static final int NAMED = 5;

    private final Optional<ReadBack> readBack;
    private final Map<String, Long> rangesByReplay = new TreeMap<>();
    private long ranges;

    SegmentsRead(Optional<ReadBack> readBack) {
        this.readBack = readBack;
    }

    /** Whether a replay of {@code dlqTopic} with id {@code replayId} is one whose ranges this read keeps. */
    boolean isOther(String dlqTopic, String replayId) {
        return readBack.filter(r -> r.dlqTopic().equals(dlqTopic) && !r.replayId().equals(replayId)).isPresent();
    }

    /**
     * The segment record keyed {@code key}, when it is another replay's of the dead-letter topic; empty otherwise.
     *
     * @throws IllegalArgumentException when it is not a segment record of this format, or not the one its key names
     * @throws ConfigException          when the segments kept would hold more ranges than the read-back allows
     */
    Optional<ProgressFormat.SegmentRanges> read(String key, byte[] value) {
        if (readBack.isEmpty()) {
            return Optional.empty();
        }
        ProgressFormat.SegmentRanges segment = ProgressFormat.readSegment(key, value);
        if (!isOther(segment.dlqTopic(), segment.replayId())) {
            return Optional.empty();
        }
        long count = segment.ranges().values().stream().mapToInt(List::size).sum();
        ranges += count;
        rangesByReplay.merge(segment.replayId(), count, Long::sum);
        requireWithin(ranges, rangesByReplay.keySet());
        return Optional.of(segment);
    }

    /** The segments of {@code replayId} among {@code segments}, by index. */
    static SortedMap<Integer, Map<Integer, List<WrittenOffsets.Range>>> byIndex(
            Collection<ProgressFormat.SegmentRanges> segments, String replayId) {
        SortedMap<Integer, Map<Integer, List<WrittenOffsets.Range>>> byIndex = new TreeMap<>();
        segments.stream().filter(s -> s.replayId().equals(replayId)).forEach(s -> byIndex.put(s.index(), s.ranges()));
        return byIndex;
    }

    /** Checks the ranges read and the open ones of the other replays' progress records against the limit. */
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
