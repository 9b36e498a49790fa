package dev.quarantine.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The dead letters a replay wrote somewhere (replayed, dead-lettered again or parked: {@link Outcome#written()}), as
 * ranges of offsets of the dead-letter topic per partition: what a later replay of the same topic skips as already
 * replayed. A dead letter the replay skipped (filter, truncation, no destination, refused) is in no range.
 *
 * <p>Compact: a range grows while the dead letters read one after another in its partition are written, so the
 * offsets between them that hold no dead letter (transaction markers) are inside it; a skipped dead letter ends it.
 * Immutable.
 *
 * <p>Bounded: a replay that writes every second dead letter and skips the others (refused, filtered out) makes one
 * range per written dead letter, and its progress record would outgrow the progress topic's limit. So the ranges are
 * {@linkplain #coalesced(int) coalesced}: the smallest gaps between two ranges of a partition are filled first, until
 * few enough ranges are left (at least one per partition). The result is <em>approximate</em>: it still holds every
 * dead letter written, and also the skipped ones of the filled gaps. That errs on the safe side of what the ranges are
 * for: a later replay skips (as already replayed) a dead letter this one may not have written, and never writes again
 * one that this one wrote; {@code replay.again} replays them all, as it does any finished replay's.
 */
public final class WrittenOffsets {

    /** Offsets {@code from} to {@code to} of one partition, both inclusive. */
    public record Range(long from, long to) {
        boolean contains(long offset) {
            return offset >= from && offset <= to;
        }
    }

    public static final WrittenOffsets NONE = new WrittenOffsets(new TreeMap<>(), false);

    private final SortedMap<Integer, List<Range>> ranges;
    private final boolean approximate;

    private WrittenOffsets(SortedMap<Integer, List<Range>> ranges, boolean approximate) {
        this.ranges = ranges;
        this.approximate = approximate;
    }

    static WrittenOffsets of(Map<Integer, List<Range>> ranges) {
        return of(ranges, false);
    }

    static WrittenOffsets of(Map<Integer, List<Range>> ranges, boolean approximate) {
        SortedMap<Integer, List<Range>> copy = new TreeMap<>();
        ranges.forEach((partition, list) -> copy.put(partition, List.copyOf(list)));
        return new WrittenOffsets(copy, approximate);
    }

    /**
     * Whether gaps were filled to keep the ranges few ({@link #coalesced(int)}): then the ranges also hold dead
     * letters that were not written.
     */
    public boolean approximate() {
        return approximate;
    }

    /** Per partition, the ranges in offset order. */
    public SortedMap<Integer, List<Range>> ranges() {
        return Collections.unmodifiableSortedMap(ranges);
    }

    /** Whether the dead letter at {@code partition}, {@code offset} is in a range. */
    public boolean contains(int partition, long offset) {
        List<Range> list = ranges.get(partition);
        if (list == null) {
            return false;
        }
        int low = 0;
        int high = list.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            Range range = list.get(middle);
            if (range.contains(offset)) {
                return true;
            }
            if (offset < range.from()) {
                high = middle - 1;
            } else {
                low = middle + 1;
            }
        }
        return false;
    }

    /** The number of ranges over all partitions: the size of what a progress record holds for them. */
    public int rangeCount() {
        return ranges.values().stream().mapToInt(List::size).sum();
    }

    /**
     * These offsets with the dead letter at {@code offset} of {@code partition} written; it extends the partition's
     * last range when that range ends at {@code previousRead}, the dead letter read just before it in its partition.
     */
    WrittenOffsets plus(int partition, long offset, Long previousRead) {
        SortedMap<Integer, List<Range>> copy = new TreeMap<>(ranges);
        List<Range> list = new ArrayList<>(copy.getOrDefault(partition, List.of()));
        Range last = list.isEmpty() ? null : list.get(list.size() - 1);
        if (last != null && (last.to() + 1 == offset || Objects.equals(previousRead, last.to()))) {
            list.set(list.size() - 1, new Range(last.from(), offset));
        } else {
            list.add(new Range(offset, offset));
        }
        copy.put(partition, List.copyOf(list));
        return new WrittenOffsets(copy, approximate);
    }

    /**
     * These offsets in at most {@code maxRanges} ranges, or one per partition when there are more partitions: the
     * smallest gaps between two ranges of a partition are filled first (ties: lower partition, then lower offset),
     * and the result is {@link #approximate()}. Unchanged when there are few enough ranges already.
     */
    WrittenOffsets coalesced(int maxRanges) {
        int surplus = rangeCount() - Math.max(maxRanges, ranges.size());
        if (surplus <= 0) {
            return this;
        }
        List<Gap> gaps = new ArrayList<>();
        ranges.forEach((partition, list) -> {
            for (int i = 1; i < list.size(); i++) {
                gaps.add(new Gap(partition, i, list.get(i).from() - list.get(i - 1).to() - 1));
            }
        });
        gaps.sort(Comparator.comparingLong(Gap::size).thenComparingInt(Gap::partition).thenComparingInt(Gap::index));
        Set<Gap> filled = new HashSet<>(gaps.subList(0, surplus));
        SortedMap<Integer, List<Range>> merged = new TreeMap<>();
        ranges.forEach((partition, list) -> {
            List<Range> kept = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Range range = list.get(i);
                if (i > 0 && filled.contains(new Gap(partition, i, range.from() - list.get(i - 1).to() - 1))) {
                    Range last = kept.remove(kept.size() - 1);
                    kept.add(new Range(last.from(), range.to()));
                } else {
                    kept.add(range);
                }
            }
            merged.put(partition, List.copyOf(kept));
        });
        return new WrittenOffsets(merged, true);
    }

    /** The offsets between range {@code index - 1} and range {@code index} of a partition. */
    private record Gap(int partition, int index, long size) {
    }

    /** These ranges and {@code other}'s: what either wrote. */
    WrittenOffsets union(WrittenOffsets other) {
        SortedMap<Integer, List<Range>> merged = new TreeMap<>();
        for (Map<Integer, List<Range>> source : List.of(ranges, other.ranges)) {
            source.forEach((partition, list) -> merged.computeIfAbsent(partition, p -> new ArrayList<>()).addAll(list));
        }
        merged.replaceAll((partition, list) -> merge(list));
        return new WrittenOffsets(merged, approximate || other.approximate);
    }

    private static List<Range> merge(List<Range> list) {
        List<Range> sorted = new ArrayList<>(list);
        sorted.sort((a, b) -> Long.compare(a.from(), b.from()));
        List<Range> merged = new ArrayList<>();
        for (Range range : sorted) {
            Range last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && range.from() <= last.to() + 1) {
                merged.set(merged.size() - 1, new Range(last.from(), Math.max(last.to(), range.to())));
            } else {
                merged.add(range);
            }
        }
        return List.copyOf(merged);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WrittenOffsets w && w.ranges.equals(ranges) && w.approximate == approximate;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ranges, approximate);
    }

    @Override
    public String toString() {
        return (approximate ? "approximately " : "") + ranges;
    }
}
