package dev.quarantine.connect.sink.cluster;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;

/**
 * Rule V's check (docs/design/sink-ownership.md 2.7.1, step 3): what the target cluster shows of the transaction C
 * behind a source partition's latest committed progress record decides what its holder does before writing the
 * partition again. C's records of the source partition on each partition {@code tp} it wrote are named by the record's
 * {@code written.<tp>=<first>,<end>,<from>} lines; a {@link WrittenProbe} reads {@code tp} {@code read_committed} at
 * {@code first} (and, for the identity-mapped target partition, from {@code end} on) and answers a {@link Look} per
 * line. The decision, first matching row wins:
 *
 * <table>
 * <caption>What the looks at C's lines say</caption>
 * <tr><th>a line's look</th><th>verdict</th><th>then</th></tr>
 * <tr><td>held back: the last stable offset at or below {@code first} (a transaction is open there), or, from
 *     {@code end} of an identity-mapped partition, nothing visible while a transaction is open there</td>
 *     <td>{@link Wait}</td><td>a live transaction of another slot is waited for; a range of C's producer id left
 *     open by skipped markers goes to the look of 2.7; then checked again</td></tr>
 * <tr><td>a record visible at or after {@code end} of an identity-mapped partition</td>
 *     <td>{@link ProgressAborted}</td><td>a later transaction of the partition committed there while its progress
 *     record is not visible: C's progress record was aborted on progress partition 0; find it, never redo from this
 *     progress (that would copy twice)</td></tr>
 * <tr><td>the record at {@code first} is not returned although the read passed it</td><td>{@link Redo}</td>
 *     <td>C is lost there: commit the intent (next back at the smallest {@code from} of the lost lines, redo up to
 *     this progress's {@code next}, each lost partition from its own line's {@code from}), then redo</td></tr>
 * <tr><td>otherwise (every record at {@code first} visible, deleted by retention, removed by compaction, or gone:
 *     {@code first} at or past the partition's end, its topic deleted (and created again: a line naming another
 *     topic id than the topic's now, read {@link AtFirst#DELETED} without a look at the new topic's offsets), or an
 *     unclean election)</td><td>{@link Clean}</td>
 *     <td>nothing to redo (what is gone cannot be read to tell); those lines are named for a WARN</td></tr>
 * </table>
 */
public final class WrittenCheck {

    /** What a read at a line's {@code first} found. */
    public enum AtFirst {
        /** The record at {@code first} was returned: C's records there are committed. */
        VISIBLE,
        /**
         * The {@code read_committed} read passed {@code first} without returning it while the record is in the log (a
         * {@code read_uncommitted} read returns it): C's records there were aborted.
         */
        ABORTED,
        /** The last stable offset is at or below {@code first}: a transaction is open there. */
        HELD_BACK,
        /** {@code first} is below the log start offset: retention deleted it. */
        DELETED,
        /** {@code first} is at or past the partition's high watermark: the records are gone. */
        MISSING,
        /**
         * Neither visible nor in the log at {@code first} (a compacted topic's cleaner removed the record, superseded
         * by a later one of its key): nothing tells whether it was committed, so nothing is redone.
         */
        COMPACTED
    }

    /**
     * The look at one line.
     *
     * @param visibleFromEnd  the offset of the first record visible at or after the line's {@code end}, for an
     *                        identity-mapped target partition; empty when none is, or the partition is not checked
     *                        there
     * @param heldBackFromEnd for a partition checked from {@code end}: none visible from there while a transaction is
     *                        open on the partition (its last stable offset below its high watermark): a later
     *                        transaction of the source partition left open there, whose progress record may be the
     *                        one aborted, so the check waits for it as for a held-back {@code first}
     */
    public record Look(AtFirst atFirst, OptionalLong visibleFromEnd, boolean heldBackFromEnd) {

        public Look(AtFirst atFirst, OptionalLong visibleFromEnd) {
            this(atFirst, visibleFromEnd, false);
        }

        public static Look of(AtFirst atFirst) {
            return new Look(atFirst, OptionalLong.empty());
        }
    }

    /** What to do before the source partition is written again. */
    public sealed interface Verdict permits Clean, Redo, Wait, ProgressAborted {
    }

    /** C is visible wherever its records still are; {@code deleted}: the lines retention cut (for a WARN). */
    public record Clean(Set<TopicPartition> deleted) implements Verdict {
    }

    /**
     * C is lost on {@code lost}: the intent to commit, {@code next} back at the smallest {@code from} of those lines,
     * redone up to {@code redoEnd}, each lost partition written only from its own {@code from} on.
     */
    public record Redo(long next, long redoEnd, Map<TopicPartition, Long> redoFrom, Set<TopicPartition> deleted)
            implements Verdict {

        public Set<TopicPartition> lost() {
            return redoFrom.keySet();
        }
    }

    /** A transaction is open on {@code heldBack} at or before C's records: check again once it has ended. */
    public record Wait(Set<TopicPartition> heldBack) implements Verdict {
    }

    /**
     * A record of a later transaction is visible at {@code offset} of the identity-mapped {@code partition} while the
     * progress says nothing of it: C's progress record was aborted; the holder looks for it, never redoes from here.
     */
    public record ProgressAborted(TopicPartition partition, long offset) implements Verdict {
    }


    private WrittenCheck() {
    }

    /**
     * Decides from the looks at {@code progress}'s written lines.
     *
     * @throws IllegalArgumentException when a line has no look
     */
    public static Verdict decide(ProgressRecord progress, Map<TopicPartition, Look> looks) {
        Map<TopicPartition, Written> lines = progress.written();
        Set<TopicPartition> heldBack = new HashSet<>();
        Set<TopicPartition> deleted = new HashSet<>();
        Map<TopicPartition, Long> lost = new HashMap<>();
        TopicPartition laterVisible = null;
        long laterVisibleAt = -1;
        for (Map.Entry<TopicPartition, Written> line : lines.entrySet()) {
            TopicPartition tp = line.getKey();
            Look look = looks.get(tp);
            if (look == null) {
                throw new IllegalArgumentException("no look at the written." + tp + " line");
            }
            switch (look.atFirst()) {
                case HELD_BACK -> heldBack.add(tp);
                case DELETED, MISSING, COMPACTED -> deleted.add(tp);
                case ABORTED -> lost.put(tp, line.getValue().from());
                case VISIBLE -> { }
            }
            if (look.heldBackFromEnd()) {
                heldBack.add(tp);
            }
            if (laterVisible == null && look.visibleFromEnd().isPresent()) { // lines come sorted: the first one
                laterVisible = tp;
                laterVisibleAt = look.visibleFromEnd().getAsLong();
            }
        }
        if (!heldBack.isEmpty()) {
            return new Wait(Set.copyOf(heldBack));
        }
        if (laterVisible != null) {
            return new ProgressAborted(laterVisible, laterVisibleAt);
        }
        if (!lost.isEmpty()) {
            long next = lost.values().stream().mapToLong(Long::longValue).min().orElseThrow();
            return new Redo(next, progress.next(), Map.copyOf(lost), Set.copyOf(deleted));
        }
        return new Clean(Set.copyOf(deleted));
    }
}
