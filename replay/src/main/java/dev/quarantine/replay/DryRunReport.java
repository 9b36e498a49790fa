package dev.quarantine.replay;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a replay would do, from {@link ReplayEngine#dryRun}: nothing was written.
 *
 * @param byDestination per destination topic, the dead letters that would be written there
 * @param refusedByDestination per destination topic the rule refuses ({@code DestinationRule}: not allowed, denied,
 *                      internal), the dead letters headed there: what an allow-list would have to match to let them
 *                      through (if it may)
 * @param counts        what would happen to the dead letters read (replayed counts those written to a destination;
 *                      refused, unroutable, skipped and already replayed count as a real replay would)
 * @param complete      whether the whole range was read; false when the time limit ran out first
 * @param until         per partition, where the dry run read up to (exclusive): the end of its range when complete,
 *                      else the next offset it would have read (its start where it read nothing). Passed as
 *                      {@code replay.until.offsets}, a replay reads no dead letter the dry run did not read
 */
public record DryRunReport(SortedMap<String, Long> byDestination, SortedMap<String, Long> refusedByDestination,
                           ReplayCounts counts, boolean complete, SortedMap<Integer, Long> until) {

    public DryRunReport {
        byDestination = Collections.unmodifiableSortedMap(new TreeMap<>(byDestination));
        refusedByDestination = Collections.unmodifiableSortedMap(new TreeMap<>(refusedByDestination));
        until = Collections.unmodifiableSortedMap(new TreeMap<>(until));
    }

    static DryRunReport of(Map<String, Long> byDestination, Map<String, Long> refusedByDestination,
                           ReplayProgress progress) {
        return new DryRunReport(new TreeMap<>(byDestination), new TreeMap<>(refusedByDestination), progress.counts(),
                progress.finished(), progress.nextOffsets());
    }
}
