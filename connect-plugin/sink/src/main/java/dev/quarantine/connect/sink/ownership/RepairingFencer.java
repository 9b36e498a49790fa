package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;

/**
 * A claimant's fence of the ids that held the partitions given to its slot, with what their last transactions left
 * hanging repaired (docs/design/sink-ownership.md 2.7, first row, for the ids a claimant fences): each id's last
 * transaction is described right before the fence (which the fence would hide), and after it, when that was an abort,
 * its ranges still open where a broker skipped its markers are aborted on the topics the slot writes (its target
 * topics, the dead-letter and the progress topic). Otherwise the fenced holder's next commit there (a shared
 * dead-letter partition) would make those aborted records visible. An id described and not yet repaired (the fence or
 * the repair failed for now) is not described again: a second description would name this fence instead.
 */
final class RepairingFencer implements Fencer {

    private final Fencer fencer;
    private final HangingTransactionCheck hanging;
    private final Supplier<Collection<String>> topics;
    private final Set<String> described = new HashSet<>();

    RepairingFencer(Fencer fencer, HangingTransactionCheck hanging, Supplier<Collection<String>> topics) {
        this.fencer = fencer;
        this.hanging = hanging;
        this.topics = topics;
    }

    @Override
    public Fence fence(Set<String> transactionalIds, Duration bound) {
        Set<String> describing = new HashSet<>(transactionalIds);
        describing.removeAll(described);
        try {
            if (!describing.isEmpty()) {
                Optional<RuntimeException> failed = hanging.describeLastTransactions(describing).failed().values()
                        .stream().findFirst();
                if (failed.isPresent()) {
                    throw failed.get();
                }
                described.addAll(describing);
            }
        } catch (RetriableException e) {
            return new Fence.Transient(e);
        } catch (ConnectException e) {
            return new Fence.Refused(e);
        }
        Fence fence = fencer.fence(transactionalIds, bound);
        if (!(fence instanceof Fence.Done)) {
            return fence;
        }
        try {
            Collection<String> written = topics.get();
            for (String id : transactionalIds) {
                hanging.abortBeforeWriting(id, written);
                hanging.forget(id);
                described.remove(id);
            }
        } catch (RetriableException e) {
            return new Fence.Transient(e);
        } catch (ConnectException e) {
            return new Fence.Refused(e);
        }
        return fence;
    }
}
