package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * The progress topic as the ownership rules read it, {@code read_committed}, each call from where the last one stopped
 * to the high watermark taken at the call: partition 1 (claims) and partition 0 (progress). Real: an adapter over
 * {@code ProgressLog} (step 4a) taking claims as {@link OwnershipRecord}s and mapping {@code ProgressRecord} onto
 * {@link ProgressMark}, the one fact of it the rules need.
 */
interface OwnershipLog {

    /** Partition 1: the claims ({@link OwnershipRecord}); a claim's offset identifies it. */
    LogRead<OwnershipRecord> claims(Duration bound);

    LogRead<ProgressMark> progress(Duration bound);

    /**
     * The id a committed progress record was written by and the offset of the claim it was written under; by
     * invariant I (design section 3) the proof that the fence of that claim returned.
     */
    record Holder(String id, long claim) {
    }

    /** A progress record of partition 0: who wrote {@code source}'s progress, empty for a reset's tombstone. */
    record ProgressMark(TopicPartition source, Optional<Holder> written) {
    }

    /** A record read at {@code offset}. */
    record At<T>(long offset, T record) {
    }

    /** How a read ended. */
    sealed interface LogRead<T> {
        /** Every committed record up to {@code highWatermark}, in offset order. */
        record Read<T>(List<At<T>> records, long highWatermark) implements LogRead<T> {
            public Read {
                records = List.copyOf(records);
            }
        }

        /** The last stable offset stayed below the high watermark for the whole bound: a transaction is open there. */
        record HeldBack<T>(long lastStableOffset) implements LogRead<T> {
        }

        record Failed<T>(Throwable cause) implements LogRead<T> {
        }
    }
}
