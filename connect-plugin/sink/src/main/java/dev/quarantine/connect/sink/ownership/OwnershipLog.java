package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.common.TopicPartition;

/**
 * The progress topic as the ownership rules read it, {@code read_committed}, each call from where the last one stopped
 * to the high watermark taken at the call: partition 1 (claims) and partition 0 (progress). Real: an adapter over
 * {@code ProgressLog} (step 4a) mapping {@code OwnershipRecord} and {@code ProgressRecord} onto {@link Claim} and
 * {@link ProgressMark}, the two facts the rules need, so nothing here depends on the records' format.
 */
interface OwnershipLog {

    LogRead<Claim> claims(Duration bound);

    LogRead<ProgressMark> progress(Duration bound);

    /** A claim record of partition 1: {@code holder} claims {@code source}; its offset identifies the claim. */
    record Claim(TopicPartition source, String holder) {
    }

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
