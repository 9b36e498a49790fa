package dev.quarantine.replay;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;

/**
 * Where a replay stands, as committed in its progress topic together with the records it wrote: its range (the
 * dead-letter topic's offsets when it started and its end offsets captured then, per partition), the next offset to
 * read per partition, and its counts. Read it with {@link ReplayProgressReader}.
 *
 * @param replayId     {@code replay.id}
 * @param dlqTopic     the dead-letter topic replayed
 * @param dlqTopicId   its topic id when the replay captured its range ({@link Uuid#ZERO_UUID} when it captured none):
 *                     a topic deleted and created again under the same name has another id, and the written ranges of
 *                     a replay of the old one say nothing about the new one's dead letters
 * @param state        RUNNING, DONE or CANCELLED
 * @param startOffsets per partition, the first offset of the range
 * @param endOffsets   per partition, the end of the range (exclusive): the read_committed end offsets captured when the
 *                     replay started; a restart keeps them
 * @param nextOffsets  per partition, the next offset to read; equal to {@code endOffsets} when done
 * @param counts       what happened to the dead letters read so far
 * @param written      the dead letters of the range written so far (replayed, dead-lettered again or parked): what
 *                     a later replay of the same dead-letter topic skips once this one is finished
 * @param startedAt    when the replay first started
 * @param updatedAt    when this progress was committed
 */
public record ReplayProgress(String replayId, String dlqTopic, Uuid dlqTopicId, ReplayState state,
                             SortedMap<Integer, Long> startOffsets, SortedMap<Integer, Long> endOffsets,
                             SortedMap<Integer, Long> nextOffsets,
                             ReplayCounts counts, WrittenOffsets written, Instant startedAt, Instant updatedAt) {

    public ReplayProgress {
        startOffsets = sorted(startOffsets);
        endOffsets = sorted(endOffsets);
        nextOffsets = sorted(nextOffsets);
    }

    /** A replay that has just captured its range, nothing read yet. */
    static ReplayProgress started(String replayId, String dlqTopic, Uuid dlqTopicId, Map<Integer, Long> start,
                                  Map<Integer, Long> end, Instant now) {
        ReplayProgress progress = new ReplayProgress(replayId, dlqTopic, dlqTopicId, ReplayState.RUNNING,
                new TreeMap<>(start), new TreeMap<>(end), new TreeMap<>(start), ReplayCounts.ZERO, WrittenOffsets.NONE,
                now, now);
        return progress.rangeRead() ? progress.withState(ReplayState.DONE, now) : progress;
    }

    /** A RUNNING replay that has captured no range: what a cancellation before its first progress commits. */
    static ReplayProgress unread(String replayId, String dlqTopic, Instant now) {
        return new ReplayProgress(replayId, dlqTopic, Uuid.ZERO_UUID, ReplayState.RUNNING, new TreeMap<>(),
                new TreeMap<>(), new TreeMap<>(), ReplayCounts.ZERO, WrittenOffsets.NONE, now, now);
    }

    /** Whether nothing more will be written: DONE or CANCELLED. */
    public boolean finished() {
        return state != ReplayState.RUNNING;
    }

    /** Offsets of the range already read, over all partitions (control records and aborted data included). */
    public long offsetsRead() {
        return startOffsets.keySet().stream().mapToLong(p -> nextOffsets.get(p) - startOffsets.get(p)).sum();
    }

    /** Offsets in the range, over all partitions; {@link #offsetsRead()} reaches it when done. */
    public long offsetsInRange() {
        return startOffsets.keySet().stream().mapToLong(p -> endOffsets.get(p) - startOffsets.get(p)).sum();
    }

    /** Whether every partition's next offset has reached the end of the range. */
    boolean rangeRead() {
        return endOffsets.entrySet().stream().allMatch(e -> nextOffsets.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /**
     * This progress after reading up to {@code next} with {@code newCounts} and {@code newWritten}; DONE when the
     * range is read.
     */
    ReplayProgress advanced(Map<Integer, Long> next, ReplayCounts newCounts, WrittenOffsets newWritten, Instant now) {
        ReplayProgress moved = new ReplayProgress(replayId, dlqTopic, dlqTopicId, state, startOffsets, endOffsets,
                new TreeMap<>(next), newCounts, newWritten, startedAt, now);
        return moved.rangeRead() ? moved.withState(ReplayState.DONE, now) : moved;
    }

    /** This progress with {@code newWritten} (the same dead letters written, held in fewer ranges). */
    ReplayProgress withWritten(WrittenOffsets newWritten) {
        return new ReplayProgress(replayId, dlqTopic, dlqTopicId, state, startOffsets, endOffsets, nextOffsets,
                counts, newWritten, startedAt, updatedAt);
    }

    ReplayProgress withState(ReplayState newState, Instant now) {
        return new ReplayProgress(replayId, dlqTopic, dlqTopicId, newState, startOffsets, endOffsets, nextOffsets,
                counts, written, startedAt, now);
    }

    private static SortedMap<Integer, Long> sorted(Map<Integer, Long> offsets) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(offsets));
    }
}
