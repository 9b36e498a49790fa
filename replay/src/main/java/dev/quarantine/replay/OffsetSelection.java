package dev.quarantine.replay;

import java.util.List;

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
