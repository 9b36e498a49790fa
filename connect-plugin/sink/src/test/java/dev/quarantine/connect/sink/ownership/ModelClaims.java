package dev.quarantine.connect.sink.ownership;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.LogRead;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * A task's reader of progress partition 1 in the model, as {@link OwnershipLog#claims} reads it: {@code read_committed}
 * from where the last read stopped to the high watermark taken at the call, through {@link OwnershipRecord#read}
 * (the one reader of the format); held back while a transaction is open below the high watermark (the model answers
 * at once where the real read waits up to its bound). Partition 0 is not modelled yet: progress records with
 * {@code holder} and {@code claim} come with own-records' {@code ProgressRecord}, not merged in this step.
 */
final class ModelClaims {

    private final ModelCoordinator model;
    private final TopicPartition partition;
    private final String prefix;
    private final List<At<OwnershipRecord>> seen = new ArrayList<>();
    private long position;

    ModelClaims(ModelCoordinator model, String progressTopic, String prefix) {
        this.model = model;
        this.partition = new TopicPartition(progressTopic, OwnershipRecord.PARTITION);
        this.prefix = prefix;
    }

    LogRead<OwnershipRecord> read() {
        ModelPartition log = model.partition(partition);
        long highWatermark = log.highWatermark();
        if (log.lastStableOffset() < highWatermark) {
            return new LogRead.HeldBack<>(log.lastStableOffset());
        }
        List<At<OwnershipRecord>> read = new ArrayList<>();
        log.readCommitted(position).forEach(record -> OwnershipRecord.read(prefix, record)
                .ifPresent(claim -> read.add(new At<>(record.offset(), claim))));
        position = highWatermark;
        seen.addAll(read);
        return new LogRead.Read<>(read, highWatermark);
    }

    /** Every claim read so far, in offset order. */
    List<At<OwnershipRecord>> seen() {
        return List.copyOf(seen);
    }

    /** The latest claim of {@code source} read so far. */
    Optional<At<OwnershipRecord>> latest(TopicPartition source) {
        return seen.stream().filter(at -> at.record().source().equals(source)).reduce((a, b) -> b);
    }
}
