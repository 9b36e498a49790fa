package dev.quarantine.connect.sink.ownership;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.Holder;
import dev.quarantine.connect.sink.ownership.OwnershipLog.ProgressMark;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.OwnershipRecords;

/**
 * What a slot has read of the progress topic, as the rules read it: the claims as compaction leaves them
 * ({@link OwnershipRecords}: every id's last claim of every partition) and, per source partition, the holder of the
 * latest progress record read ({@code P} of rule F; a reset's tombstone leaves none). Tailing reads add to it.
 */
final class SlotLog {

    private final OwnershipRecords claims;
    private final Map<TopicPartition, Holder> progress = new HashMap<>();

    SlotLog(String prefix) {
        this.claims = new OwnershipRecords(prefix);
    }

    /** Adds the claims read, in offset order; a claim at or below one already added is a re-read and skipped. */
    void addClaims(List<At<OwnershipRecord>> read) {
        read.stream().filter(at -> at.offset() >= claims.next()).forEach(at -> claims.add(at.offset(), at.record()));
    }

    void addProgress(List<At<ProgressMark>> read) {
        read.forEach(at -> at.record().written().ifPresentOrElse(
                holder -> progress.put(at.record().source(), holder), () -> progress.remove(at.record().source())));
    }

    Optional<At<OwnershipRecord>> latestClaim(TopicPartition source) {
        return claims.latest(source).map(claim -> new At<>(claim.offset(), claim.record()));
    }

    /** Every id's last claim of {@code source}, by offset. */
    List<At<OwnershipRecord>> claimsOf(TopicPartition source) {
        return claims.of(source).stream().map(claim -> new At<>(claim.offset(), claim.record())).toList();
    }

    Optional<Holder> progressOf(TopicPartition source) {
        return Optional.ofNullable(progress.get(source));
    }
}
