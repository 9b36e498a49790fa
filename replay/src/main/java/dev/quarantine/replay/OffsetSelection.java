package dev.quarantine.replay;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The positions of the dead-letter topic a replay's offset filters select ({@code replay.filter.offset.ranges} and
 * {@code replay.filter.offsets}; neither set: every position), to tell whether two replays of one topic could both
 * replay a dead letter. Other filters (time, error class, ...) are not considered: two replays they tell apart may
 * still select the same dead letter as far as this class knows, which errs on the side of "overlaps".
 */
public final class OffsetSelection {

    private final List<Positions.Range> ranges;

    private OffsetSelection(List<Positions.Range> ranges) {
        this.ranges = ranges;
    }

    /** The selection of {@code config}'s offset filters. */
    public static OffsetSelection of(ReplayConfig config) {
        List<Positions.Range> ranges = new java.util.ArrayList<>(config.getList(
                ReplayConfig.FILTER_OFFSET_RANGES_CONFIG).stream().map(Positions::range).toList());
        config.getList(ReplayConfig.FILTER_OFFSETS_CONFIG).forEach(text -> {
            Positions.Position p = Positions.position(text, config.dlqTopic());
            ranges.add(new Positions.Range(p.partition(), p.offset(), p.offset()));
        });
        return new OffsetSelection(List.copyOf(ranges));
    }

    /** A range per partition: from {@code start} (inclusive) to {@code end} (exclusive). */
    record Bounds(SortedMap<Integer, Long> start, SortedMap<Integer, Long> end) {
    }

    /**
     * The range from {@code start} to {@code end} per partition, cut to what this selection may select: from the
     * first offset it selects in the partition to just after the last, within the range; a partition it selects
     * nothing of gets an empty range (start = end). Unchanged when it selects every position.
     */
    Bounds bound(Map<Integer, Long> start, Map<Integer, Long> end) {
        SortedMap<Integer, Long> from = new TreeMap<>(start);
        SortedMap<Integer, Long> to = new TreeMap<>(end);
        if (ranges.isEmpty()) {
            return new Bounds(from, to);
        }
        start.forEach((partition, first) -> {
            long last = end.get(partition);
            long low = ranges.stream().filter(r -> r.partition() == partition).mapToLong(Positions.Range::from)
                    .min().orElse(last);
            long high = ranges.stream().filter(r -> r.partition() == partition).mapToLong(r -> r.to() + 1)
                    .max().orElse(first);
            long boundedFrom = Math.min(Math.max(first, low), last);
            from.put(partition, boundedFrom);
            to.put(partition, Math.max(boundedFrom, Math.min(last, high)));
        });
        return new Bounds(from, to);
    }

    /** Whether some position is selected by both. */
    public boolean overlaps(OffsetSelection other) {
        if (ranges.isEmpty() || other.ranges.isEmpty()) {
            return true;
        }
        for (Positions.Range a : ranges) {
            for (Positions.Range b : other.ranges) {
                if (a.partition() == b.partition() && a.from() <= b.to() && b.from() <= a.to()) {
                    return true;
                }
            }
        }
        return false;
    }
}
