package dev.quarantine.connect.sink.ownership;

import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.Holder;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * Rule F (design 2.2): the ids a claimant of a source partition {@code p} must fence, derived from committed records
 * only, so nothing a claimant knew only in memory is ever needed by a successor (review finding 1).
 *
 * <pre>
 * F(o) = {P.holder} ∪ {id : id holds a claim of p at an offset in (P.claim, o)} − {own id}
 * </pre>
 *
 * where {@code o} is the claimant's own claim and {@code P} the latest progress record of {@code p} it has read, from
 * any read however old (none, or a reset's tombstone, counts as {@code P.claim = -1} without a holder). A stale
 * {@code P} only adds ids: an older {@code P'} has {@code P'.claim <= P.claim}, and {@code P.holder} holds the claim at
 * {@code P.claim}, which lies in {@code (P'.claim, o)}. The own id is left out: its own {@code initTransactions}
 * fenced every earlier producer of it. Claims of other partitions and at or above {@code o} are ignored; ids no task
 * uses any more (a lower {@code tasks.max}) are fenced like any other.
 */
final class FenceSet {

    private FenceSet() {
    }

    /**
     * {@code F(ownClaim)} for {@code source}: {@code claims} are the claims read from partition 1 (any partitions, any
     * offsets), {@code progress} the holder of the latest progress record of {@code source} read, if any.
     */
    static Set<String> of(TopicPartition source, String ownId, long ownClaim, Collection<At<OwnershipRecord>> claims,
                          Optional<Holder> progress) {
        long after = progress.map(Holder::claim).orElse(-1L);
        Set<String> ids = new TreeSet<>();
        progress.ifPresent(holder -> ids.add(holder.id()));
        claims.stream()
                .filter(at -> at.record().source().equals(source) && at.offset() > after && at.offset() < ownClaim)
                .forEach(at -> ids.add(at.record().holder()));
        ids.remove(ownId);
        return ids;
    }
}
