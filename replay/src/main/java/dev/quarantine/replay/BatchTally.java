package dev.quarantine.replay;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The progress a batch makes, dead letter by dead letter, before it is committed: the counts by outcome, and the
 * ranges of written dead letters, where a dead letter written right after the one read before it in its partition
 * (in this batch, or last in the batch committed before) extends that one's range ({@link WrittenOffsets#plus}).
 */
final class BatchTally {

    private final Map<Integer, Long> read;
    private ReplayCounts counts;
    private WrittenOffsets written;

    /** @param previousRead per partition, the offset of the last dead letter of the batches committed before */
    BatchTally(ReplayProgress progress, Map<Integer, Long> previousRead) {
        this.read = new HashMap<>(previousRead);
        this.counts = progress.counts();
        this.written = progress.written();
    }

    /** Counts the dead letter at {@code partition}, {@code offset}, in the order read. */
    void add(int partition, long offset, Outcome outcome) {
        counts = counts.plus(outcome);
        if (outcome.written()) {
            written = written.plus(partition, offset, read.get(partition));
        }
        read.put(partition, offset);
    }

    WrittenOffsets written() {
        return written;
    }

    /** Per partition, the offset of the last dead letter counted (or of the batches before, when none). */
    Map<Integer, Long> read() {
        return Map.copyOf(read);
    }

    /** {@code progress} advanced to {@code next} with this batch's counts and written ranges. */
    ReplayProgress advance(ReplayProgress progress, Map<Integer, Long> next, Instant now) {
        return progress.advanced(next, counts, written, now);
    }
}
