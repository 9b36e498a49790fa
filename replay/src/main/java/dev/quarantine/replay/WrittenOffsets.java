package dev.quarantine.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The dead letters a replay wrote somewhere (replayed, dead-lettered again or parked: {@link Outcome#written()}), as
 * ranges of offsets of the dead-letter topic per partition: what a later replay of the same topic skips as already
 * replayed. A dead letter the replay skipped (filter, truncation, no destination, refused) is in no range: the ranges
 * are exact, never widened over a dead letter that was not written.
 *
 * <p>Compact: a range grows while the dead letters read one after another in its partition are written, so the
 * offsets between them that hold no dead letter (transaction markers) are inside it; a skipped dead letter ends it.
 * Immutable.
 *
 * <p>Bounded per record: a replay that writes every second dead letter and skips the others makes one range per
 * written dead letter, more than one progress record holds. So the ranges come in two parts: the <em>open</em> ones
 * ({@link #ranges()}), held in the progress record and growing, and the <em>sealed</em> ones, moved out of the progress
 * record into {@link #segments()} segment records of their own ({@link ProgressFormat#fitted}) when the progress record
 * would not fit. The running replay does not keep the sealed ones; {@link ReplayProgressReader} reads them back only
 * for the replay that needs them (what finished replays of its dead-letter topic wrote). {@link #contains} answers for
 * the ranges held: open, and sealed ones read back.
 */
public final class WrittenOffsets {

    /** Offsets {@code from} to {@code to} of one partition, both inclusive. */
    public record Range(long from, long to) {
        boolean contains(long offset) {
            return offset >= from && offset <= to;
        }
    }

    public static final WrittenOffsets NONE = new WrittenOffsets(new TreeMap<>(), new TreeMap<>(), 0, 0);

    private final SortedMap<Integer, List<Range>> ranges;
    private final SortedMap<Integer, List<Range>> sealed;
    private final int segments;
    private final long sealedCount;

    private WrittenOffsets(SortedMap<Integer, List<Range>> ranges, SortedMap<Integer, List<Range>> sealed,
                           int segments, long sealedCount) {
        this.ranges = ranges;
        this.sealed = sealed;
        this.segments = segments;
        this.sealedCount = sealedCount;
    }

    static WrittenOffsets of(Map<Integer, List<Range>> ranges) {
        return new WrittenOffsets(copy(ranges), new TreeMap<>(), 0, 0);
    }

    private static SortedMap<Integer, List<Range>> copy(Map<Integer, List<Range>> ranges) {
        SortedMap<Integer, List<Range>> copy = new TreeMap<>();
        ranges.forEach((partition, list) -> copy.put(partition, List.copyOf(list)));
        return copy;
    }

    /** Per partition, the open ranges in offset order: the ones the progress record holds. */
    public SortedMap<Integer, List<Range>> ranges() {
        return Collections.unmodifiableSortedMap(ranges);
    }

    /** How many segment records hold the sealed ranges ({@code <replay.id>/written/0} up to this, exclusive). */
    public int segments() {
        return segments;
    }

    /** Whether the dead letter at {@code partition}, {@code offset} is in a range, open or sealed. */
    public boolean contains(int partition, long offset) {
        return contains(ranges.get(partition), offset) || contains(sealed.get(partition), offset);
    }

    private static boolean contains(List<Range> list, long offset) {
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

    /** The number of open ranges over all partitions: the size of what a progress record holds for them. */
    public int rangeCount() {
        return ranges.values().stream().mapToInt(List::size).sum();
    }

    /** How many ranges the {@link #segments()} segment records hold, as the progress record says. */
    public long sealedCount() {
        return sealedCount;
    }

    /** Every range of the replay, open or sealed: what {@code replay.written.ranges.max} bounds. */
    public long totalCount() {
        return rangeCount() + sealedCount;
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
        return new WrittenOffsets(copy, sealed, segments, sealedCount);
    }

    /**
     * These offsets after their open ranges were written into {@code newSegments} more segment records: no range
     * held (the segment records hold them), {@code newSegments} more segments holding the open ranges more.
     */
    WrittenOffsets sealedInto(int newSegments) {
        return new WrittenOffsets(new TreeMap<>(), new TreeMap<>(), segments + newSegments,
                sealedCount + rangeCount());
    }

    /** These offsets with the sealed ranges read from their segment records. */
    WrittenOffsets withSealed(Map<Integer, List<Range>> sealedRanges) {
        return new WrittenOffsets(ranges, merged(sealedRanges, Map.of()), segments, sealedCount);
    }

    /**
     * These offsets with {@code count} segment records said to hold {@code rangesInThem} sealed ranges (read from a
     * progress record).
     */
    WrittenOffsets withSegments(int count, long rangesInThem) {
        return new WrittenOffsets(ranges, sealed, count, rangesInThem);
    }

    /** Every range of these and of {@code other}, open or sealed: what either wrote (open ranges, no segments). */
    WrittenOffsets union(WrittenOffsets other) {
        SortedMap<Integer, List<Range>> all = merged(ranges, sealed);
        return new WrittenOffsets(merged(all, merged(other.ranges, other.sealed)), new TreeMap<>(), 0, 0);
    }

    private static SortedMap<Integer, List<Range>> merged(Map<Integer, List<Range>> a, Map<Integer, List<Range>> b) {
        SortedMap<Integer, List<Range>> merged = new TreeMap<>();
        for (Map<Integer, List<Range>> source : List.of(a, b)) {
            source.forEach((partition, list) -> merged.computeIfAbsent(partition, p -> new ArrayList<>()).addAll(list));
        }
        merged.replaceAll((partition, list) -> merge(list));
        return merged;
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
        return other instanceof WrittenOffsets w && w.ranges.equals(ranges) && w.sealed.equals(sealed)
                && w.segments == segments && w.sealedCount == sealedCount;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ranges, sealed, segments, sealedCount);
    }

    @Override
    public String toString() {
        return segments == 0 ? ranges.toString() : ranges + " and " + sealed + " in " + segments + " segments";
    }
}
