package dev.quarantine.connect.sink.cluster;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.TopicPartition;

/**
 * The last committed transactions of one running writer (its producer, this session), and which of them a failing
 * transaction of the same producer would abort: a restarting broker that skipped a commit's markers on a partition
 * leaves it open there, and the broker counts an open transaction of a producer id on a partition from its first
 * record, so the next transaction of that producer id writing the partition is the same open one there: its abort
 * aborts the committed records too.
 *
 * <table>
 * <caption>An open transaction of this writer's producer id on a partition, first offset S, before an abort</caption>
 * <tr><th>remembered commits on that partition</th><th>then</th></tr>
 * <tr><td>one wrote a record at an offset S or above</td><td>held open: the abort would lose it; redone from the
 *     {@code from} of the earliest such commit</td></tr>
 * <tr><td>all wrote below S (or none wrote there)</td><td>the open transaction is the failing one: nothing held</td>
 *     </tr>
 * <tr><td>S is below the first record of every remembered commit there, {@value #REMEMBERED} remembered</td><td>held
 *     open, redone from the earliest remembered; commits older than that are not known (a limit)</td></tr>
 * </table>
 *
 * <p>Offsets only grow on a partition, so a record of a committed transaction at or above S is inside the open one;
 * the failing transaction's own records all lie above every earlier commit's. A commit's markers are written before
 * the same producer's next transaction can add a partition (the coordinator answers CONCURRENT_TRANSACTIONS until
 * then), so a commit found open once the failing transaction holds the partition was skipped, not late.
 */
public final class RecentCommits {

    /** How many commits a writer remembers: each left open needs a restarting broker that skipped its markers. */
    static final int REMEMBERED = 8;

    /** A committed transaction: its first source offset, its last offset on each partition. */
    private record Commit(long from, Map<TopicPartition, Long> lastOffsets) {
    }

    /** Commits held open on {@code partitions}: the source offsets from {@code from} on must be written there again. */
    public record HeldOpen(long from, Set<TopicPartition> partitions) {
    }

    private final Deque<Commit> commits = new ArrayDeque<>();

    /**
     * Remembers a commit of source offsets from {@code from} on whose last record on each partition (target and
     * dead-letter partitions, never the progress partition) had the offset in {@code lastOffsets}.
     */
    public void committed(long from, Map<TopicPartition, Long> lastOffsets) {
        if (lastOffsets.isEmpty()) {
            return;
        }
        commits.addLast(new Commit(from, Map.copyOf(lastOffsets)));
        if (commits.size() > REMEMBERED) {
            commits.removeFirst();
        }
    }

    /** Whether any commit with records is remembered (else nothing can be held open, and nothing is looked at). */
    public boolean any() {
        return !commits.isEmpty();
    }

    /** The partitions the remembered commits wrote. */
    public Set<TopicPartition> partitions() {
        Set<TopicPartition> partitions = new TreeSet<>(RecentCommits::compare);
        commits.forEach(commit -> partitions.addAll(commit.lastOffsets().keySet()));
        return partitions;
    }

    /**
     * Which remembered commits the open transactions of this writer's producer id, by partition their first offset
     * ({@code openFrom}), hold: empty when none.
     */
    public Optional<HeldOpen> heldOpen(Map<TopicPartition, Long> openFrom) {
        Set<TopicPartition> partitions = new TreeSet<>(RecentCommits::compare);
        long from = Long.MAX_VALUE;
        for (Commit commit : commits) {
            for (Map.Entry<TopicPartition, Long> open : openFrom.entrySet()) {
                Long last = commit.lastOffsets().get(open.getKey());
                if (last != null && last >= open.getValue()) {
                    partitions.add(open.getKey());
                    from = Math.min(from, commit.from());
                }
            }
        }
        return partitions.isEmpty() ? Optional.empty() : Optional.of(new HeldOpen(from, partitions));
    }

    private static int compare(TopicPartition a, TopicPartition b) {
        int byTopic = a.topic().compareTo(b.topic());
        return byTopic != 0 ? byTopic : Integer.compare(a.partition(), b.partition());
    }
}
