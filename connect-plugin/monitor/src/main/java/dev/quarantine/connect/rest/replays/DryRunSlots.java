package dev.quarantine.connect.rest.replays;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

/**
 * At most {@code quarantine.monitor.replay.dry.run.max.concurrent} dry runs at once on this worker: each opens a
 * consumer and an admin client and reads for up to {@code quarantine.monitor.replay.dry.run.timeout.ms}, so one more
 * is refused at once (429) rather than queued.
 */
public final class DryRunSlots {

    private final int max;
    private final Semaphore free;

    public DryRunSlots(int max) {
        this.max = max;
        this.free = new Semaphore(max);
    }

    /** Runs {@code dryRun} in a free slot. @throws MonitorException 429 naming the setting when none is free */
    <T> T run(Supplier<T> dryRun) {
        if (!free.tryAcquire()) {
            throw MonitorException.tooManyRequests("this worker runs " + max + " dry runs at once at most ("
                    + MonitorConfig.REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG + "), all busy; retry later");
        }
        try {
            return dryRun.get();
        } finally {
            free.release();
        }
    }
}
