package dev.quarantine.connect.sink.cluster;

import java.util.Set;

import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * When a range a transactional id left open on a partition may be taken for a leftover of skipped markers (design
 * 2.7): the id's writer is settled, no transaction of it under way whose markers may still end the range (ongoing,
 * prepared, being fenced), and it was described alike before and after the look at the partition, so none began or
 * ended in between. The one rule for rule V's aborts ({@link WrittenRepair}) and the completions of ranges left open
 * on the progress topic ({@code LeftOpenCompletion}).
 */
public final class SettledWriters {

    private static final Set<TransactionState> UNDER_WAY = Set.of(TransactionState.ONGOING,
            TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

    private SettledWriters() {
    }

    /** Whether {@code now} has no transaction under way. */
    public static boolean settled(TransactionDescription now) {
        return !UNDER_WAY.contains(now.state());
    }

    /** Whether {@code before} and {@code after} (either null: no) describe the same producer id, epoch and state. */
    public static boolean alike(TransactionDescription before, TransactionDescription after) {
        return before != null && after != null && before.producerId() == after.producerId()
                && before.producerEpoch() == after.producerEpoch() && before.state() == after.state();
    }
}
