package dev.quarantine.replay;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;

/**
 * Logs a WARN once per record position ({@code topic-partition@offset}) for a record left out of a read, remembering at
 * most {@code capacity} positions (the oldest forgotten first): a progress view is read again every few seconds, and
 * one stray record must not write a line each time. Never logs the record's key or value, nor a message that may
 * quote them.
 */
final class WarnedPositions {

    private final Logger log;
    private final Set<String> warned;

    WarnedPositions(Logger log, int capacity) {
        this.log = log;
        this.warned = Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        }));
    }

    /** Logs {@code why} the record at {@code position} is left out, unless that position was logged already. */
    void warnOnce(String position, IllegalArgumentException why) {
        if (warned.add(position)) {
            log.warn("Record at {} is not a replay progress record of this version ({}); left out of the replays read"
                    + " (a replay whose own progress it is refuses to run until it is readable or deleted with a"
                    + " tombstone of its key)", position, why.getClass().getSimpleName());
        }
    }
}
