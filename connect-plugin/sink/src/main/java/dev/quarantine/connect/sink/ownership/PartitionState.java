package dev.quarantine.connect.sink.ownership;

import java.util.Optional;
import java.util.OptionalLong;

import dev.quarantine.connect.sink.ownership.Fencer.Fence;
import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.Holder;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * A source partition's state in a task (design 2.3), one value per partition, moved by what the task learns:
 *
 * <table>
 * <caption>States and what moves them</caption>
 * <tr><th>state</th><th>entered</th><th>leaves to</th></tr>
 * <tr><td>NEW</td><td>{@code open(p)}, paused</td><td>CLAIMED(o) or FENCED(o) after a read of partition 1
 * finds the own id's claim as the latest (after the own claim, or one made before)</td></tr>
 * <tr><td>CLAIMED(o)</td><td>the latest claim is the own id's at o, without proof that its fence completed</td>
 * <td>FENCED(o) when the fence returned; LOST when a later claim of another id is read; stays on a fence that timed
 * out</td></tr>
 * <tr><td>FENCED(o)</td><td>the fence of F(o) returned, or a committed progress record with claim=o was read</td>
 * <td>OWNED(o) once progress was read after the fence (or the last init); LOST if that progress is under a later
 * claim</td></tr>
 * <tr><td>OWNED(o)</td><td>progress known: the only state whose records are written</td><td>LOST when a read shows a
 * claim of another id above o</td></tr>
 * <tr><td>LOST</td><td>a later claim of another id was read</td><td>only a new claim (a reclaim)</td></tr>
 * </table>
 *
 * <p><b>Rule O.</b> A partition is OWNED only through FENCED(o) with o still the latest claim. "The latest claim is
 * the own id's" alone gives CLAIMED(o), whose fence is then run (again; it is idempotent): the proof is this
 * instance's memory that the fence of F(o) returned ({@link FenceMemory}, which outlives {@code close}), or a committed
 * progress record with {@code claim=o}, which only a holder past that fence writes. Another instance of the own id
 * counts as the own id. Every state but OWNED is paused.
 */
sealed interface PartitionState {

    /** Opened, nothing read yet: claim it unless a read of partition 1 finds the own id's claim as the latest. */
    record New() implements PartitionState {
    }

    /** The own id's claim at {@code claim} is the latest; its fence has not (provably) returned. */
    record Claimed(long claim) implements PartitionState {
    }

    /** The fence of F({@code claim}) returned: the progress may now be read. */
    record Fenced(long claim) implements PartitionState {
    }

    /** Progress read after the fence: written by this task. */
    record Owned(long claim) implements PartitionState {
    }

    /** {@code claimant} claimed the partition at {@code claim}, above the own claim: never written here again. */
    record Lost(String claimant, long claim) implements PartitionState {
    }

    static PartitionState opened() {
        return new New();
    }

    /**
     * After a read of partition 1 (design 2.4 step 1, 2.5 after every {@code initTransactions}, and any later read;
     * step 3, the read right after the own claim, is {@link #afterOwnClaim}):
     * {@code latest} is the latest claim of the partition read, {@code fenceReturned} the claim whose fence returned
     * in this instance ({@link FenceMemory}), {@code progress} the latest progress record of the partition read.
     */
    default PartitionState afterClaimsRead(Optional<At<OwnershipRecord>> latest, String ownId,
                                           OptionalLong fenceReturned, Optional<Holder> progress) {
        if (latest.isEmpty()) {
            return this;
        }
        long claim = latest.get().offset();
        String holder = latest.get().record().holder();
        if (!holder.equals(ownId)) {
            return this instanceof New || this instanceof Lost ? this : new Lost(holder, claim);
        }
        if (this instanceof Owned owned && owned.claim() == claim) {
            return this;
        }
        return proven(claim, fenceReturned, progress) ? new Fenced(claim) : new Claimed(claim);
    }

    /**
     * Step 3 of design 2.4: the own claim committed at {@code ownClaim} and partition 1 was read to a high watermark
     * taken after that commit, so every claim below it is seen. A claim of another id above it: LOST at once;
     * a later one of the own id (another instance, row 14) is the own claim; otherwise CLAIMED at the own claim,
     * whatever the state before (a claim is never taken for its own fence, rule O).
     */
    static PartitionState afterOwnClaim(long ownClaim, String ownId, Optional<At<OwnershipRecord>> latest) {
        if (latest.isEmpty() || latest.get().offset() <= ownClaim) {
            return new Claimed(ownClaim);
        }
        String holder = latest.get().record().holder();
        return holder.equals(ownId) ? new Claimed(latest.get().offset()) : new Lost(holder, latest.get().offset());
    }

    /** After the fence of F(o) for this partition's claim: only CLAIMED moves, and only when the fence returned. */
    default PartitionState afterFence(long claim, Fence fence) {
        return this instanceof Claimed claimed && claimed.claim() == claim && fence instanceof Fence.Done
                ? new Fenced(claim) : this;
    }

    /**
     * After a read of partition 0 that followed the fence (or the last init): FENCED becomes OWNED, or LOST when the
     * progress was written under a later claim (a later claimant's, which the next read of partition 1 shows).
     */
    default PartitionState afterProgressRead(Optional<Holder> progress) {
        if (!(this instanceof Fenced fenced)) {
            return this;
        }
        if (progress.isPresent() && progress.get().claim() > fenced.claim()) {
            return new Lost(progress.get().id(), progress.get().claim());
        }
        return new Owned(fenced.claim());
    }

    /** Only an OWNED partition's records are written (rule W); every other state is paused. */
    default boolean writable() {
        return this instanceof Owned;
    }

    /** Rule O's proof that the fence of {@code claim} completed. */
    static boolean proven(long claim, OptionalLong fenceReturned, Optional<Holder> progress) {
        return fenceReturned.isPresent() && fenceReturned.getAsLong() == claim
                || progress.isPresent() && progress.get().claim() == claim;
    }
}
