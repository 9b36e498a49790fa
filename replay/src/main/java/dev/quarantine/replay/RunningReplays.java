package dev.quarantine.replay;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a replay may start while other replays of the same dead-letter topic run, decided on what every instance
 * can read, wherever it runs (a connector task, a worker's monitor, the command line): the progress records of the
 * progress topic. A replay that is about to capture its range ({@code candidate}) meets each other replay's latest
 * progress; the first row that matches decides:
 *
 * <table>
 * <caption>Another replay's progress, against a replay starting</caption>
 * <tr><th>other replay</th><th>verdict</th></tr>
 * <tr><td>the same replay id (this replay resuming)</td><td>no conflict</td></tr>
 * <tr><td>DONE or CANCELLED</td><td>no conflict (what it wrote is skipped as already replayed)</td></tr>
 * <tr><td>of another dead-letter topic, or of a topic deleted since under the same name (another topic id)</td>
 *     <td>no conflict</td></tr>
 * <tr><td>RUNNING, and no partition's ranges share an offset (each range: from its start to its end, exclusive;
 *     the offset filters bound it, {@link OffsetSelection#bound})</td><td>no conflict</td></tr>
 * <tr><td>RUNNING, and some partition's ranges share an offset</td><td>conflict</td></tr>
 * </table>
 *
 * A RUNNING replay whose process died stays RUNNING until it is resumed (its id) or cancelled: the refusal says how.
 */
final class RunningReplays {

    private RunningReplays() {
    }

    /** The first replay (by id) of {@code replays} that {@code candidate} conflicts with, as the table says. */
    static Optional<ReplayProgress> overlapping(ReplayProgress candidate, Collection<ReplayProgress> replays) {
        return replays.stream().filter(other -> conflicts(candidate, other))
                .min((a, b) -> a.replayId().compareTo(b.replayId()));
    }

    /**
     * @param cancelled whether {@code candidate} was committed and is now cancelled (the message says so)
     * @throws ReplayOverlapException naming the replay of {@code replays} that {@code candidate} conflicts with
     */
    static void refuseOverlap(ReplayConfig config, ReplayProgress candidate, Collection<ReplayProgress> replays,
                              boolean cancelled) {
        overlapping(candidate, replays).ifPresent(running -> {
            throw new ReplayOverlapException(config, running, sharedPartition(candidate, running).orElseThrow(),
                    cancelled);
        });
    }

    private static boolean conflicts(ReplayProgress candidate, ReplayProgress other) {
        return !other.replayId().equals(candidate.replayId())
                && !other.finished()
                && other.dlqTopic().equals(candidate.dlqTopic())
                && other.dlqTopicId().equals(candidate.dlqTopicId())
                && sharedPartition(candidate, other).isPresent();
    }

    /** The first partition whose two ranges share an offset. */
    static Optional<Integer> sharedPartition(ReplayProgress a, ReplayProgress b) {
        for (Map.Entry<Integer, Long> start : a.startOffsets().entrySet()) {
            int partition = start.getKey();
            Long otherStart = b.startOffsets().get(partition);
            Long otherEnd = b.endOffsets().get(partition);
            if (otherStart != null && otherEnd != null && Math.max(start.getValue(), otherStart)
                    < Math.min(a.endOffsets().get(partition), otherEnd)) {
                return Optional.of(partition);
            }
        }
        return Optional.empty();
    }
}
