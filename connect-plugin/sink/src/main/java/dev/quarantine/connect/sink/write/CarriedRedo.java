package dev.quarantine.connect.sink.write;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.RedoRange;

/**
 * A redo a running writer found it needs but could not begin: the failing transaction held commits of its own left
 * open (see {@link RunningRedo}), and its abort failed or timed out, so the producer is broken or fenced and cannot
 * commit the intent. The transaction ends aborted all the same (the producer's close, the coordinator's timeout or
 * the next producer's {@code initTransactions} aborts it), the held commits' records on {@code range}'s partitions
 * with it. So the redo is carried to the partition's next producer of this task (the partition's re-establishment), which
 * commits the intent after reading the progress and before writing anything.
 *
 * <table>
 * <caption>The next producer reads the progress {@code last}</caption>
 * <tr><th>{@code last}</th><th>then</th></tr>
 * <tr><td>its {@code next} at or below the redo's end (nothing committed past the failing batch since)</td>
 *     <td>the intent: the progress back at {@code from}, the redo up to its end (or to {@code last}'s redo's end) on
 *     its partitions, those of {@code last}'s redo and those the open found a commit left open on</td></tr>
 * <tr><td>its {@code next} above the redo's end (another writer of the id wrote on)</td><td>not redone: the records
 *     are named as lost (an older range must not move the progress back under another writer's)</td></tr>
 * </table>
 *
 * @param from  the first source offset of the earliest commit held open
 * @param range where the records from {@code from} on must be written again, and up to which offset
 */
public record CarriedRedo(long from, RedoRange range) {

    /**
     * The redo the next producer begins after reading {@code last}, joined with the partitions the open found a commit
     * left open on ({@code open}) and a redo {@code last} is in; empty when the progress went past the range's end.
     */
    Optional<RedoRange> after(ProgressRecord last, Set<TopicPartition> open) {
        if (last.next() > range.end()) {
            return Optional.empty();
        }
        Set<TopicPartition> partitions = new TreeSet<>(CarriedRedo::compare);
        partitions.addAll(range.partitions());
        partitions.addAll(open);
        long end = Math.max(range.end(), last.next());
        if (last.redo().isPresent()) {
            partitions.addAll(last.redo().get().partitions());
            end = Math.max(end, last.redo().get().end());
        }
        return Optional.of(new RedoRange(end, partitions));
    }

    /**
     * This redo and {@code other}, both carried for one partition (a second writer broke before the first redo was
     * begun): from the earlier start to the later end, on the partitions of both.
     */
    public CarriedRedo joinedWith(CarriedRedo other) {
        Set<TopicPartition> partitions = new TreeSet<>(CarriedRedo::compare);
        partitions.addAll(range.partitions());
        partitions.addAll(other.range.partitions());
        return new CarriedRedo(Math.min(from, other.from),
                new RedoRange(Math.max(range.end(), other.range.end()), partitions));
    }

    /** The records concerned, for messages: source offsets, last one and partitions. */
    String describe() {
        return "source offsets " + from + " to " + (range.end() - 1) + " on " + range.partitionsText();
    }

    private static int compare(TopicPartition a, TopicPartition b) {
        int byTopic = a.topic().compareTo(b.topic());
        return byTopic != 0 ? byTopic : Integer.compare(a.partition(), b.partition());
    }
}
