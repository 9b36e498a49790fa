package dev.quarantine.connect.sink.progress;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.TopicPartition;

/**
 * The claims of partition 1 of the progress topic as compaction leaves them (docs/design/sink-ownership.md 2.2): the
 * last record of each key wins, so every id keeps its last claim of every partition, each with its offset. A claim is
 * identified by its offset, and "later" always means a higher offset; so records are added in the order of the log,
 * and a reader that tails the partition adds what it read since it last stopped. What compaction keeps is exactly
 * what this view answers: the latest claim of a partition is some key's last record, and the ids holding a claim of
 * a partition above any offset are the same before and after the cleaner ran.
 */
public final class OwnershipRecords {

    /** A claim and its offset in partition 1. */
    public record Claim(long offset, OwnershipRecord record) {

        public String holder() {
            return record.holder();
        }
    }

    private final String prefix;
    /** Per source partition, per holder (together: the key), the last claim. */
    private final Map<TopicPartition, Map<String, Claim>> lastByKey = new HashMap<>();
    private long next;

    /** An empty view of the claims of {@code prefix}'s ids. */
    public OwnershipRecords(String prefix) {
        this.prefix = prefix;
    }

    /**
     * Adds the claim read at {@code offset}, replacing the earlier record of its key.
     *
     * @throws IllegalArgumentException when {@code offset} is not above every offset added so far (the log is read in
     *                                  order), or the holder is not one of the prefix's ids
     */
    public void add(long offset, OwnershipRecord claim) {
        if (offset < next) {
            throw new IllegalArgumentException("offset " + offset + " is below " + next + ", the next of the claims"
                    + " read so far: claims are added in the order of partition " + OwnershipRecord.PARTITION);
        }
        if (!claim.heldUnder(prefix)) {
            throw new IllegalArgumentException("the holder is not an id of the prefix " + prefix);
        }
        lastByKey.computeIfAbsent(claim.source(), source -> new HashMap<>()).put(claim.holder(),
                new Claim(offset, claim));
        next = offset + 1;
    }

    /** The offset after the last claim added: where a tailing read goes on from, at least. */
    public long next() {
        return next;
    }

    /** The latest claim of {@code source}: the highest offset among its keys. */
    public Optional<Claim> latest(TopicPartition source) {
        return of(source).stream().reduce((earlier, later) -> later);
    }

    /** Every id's last claim of {@code source}, by offset. */
    public List<Claim> of(TopicPartition source) {
        return lastByKey.getOrDefault(source, Map.of()).values().stream()
                .sorted(Comparator.comparingLong(Claim::offset)).toList();
    }
}
