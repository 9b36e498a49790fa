package dev.quarantine.replay.cli;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.utils.Time;

import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayProgress;

/**
 * The line {@code quarantine replay} keeps updated on a terminal: a bar, the offsets of the captured range read so
 * far of all of them, the rate of this run (offsets read per second since it started, so a resumed replay's earlier
 * runs do not inflate it), the time left at that rate, and the counts. No key, value or header is in it.
 */
final class ProgressLine {

    private static final int BAR_WIDTH = 30;
    private static final String UNKNOWN = "--";

    private final Time time;
    private final long startNanos;
    private final long readAtStart;

    /** Starts the clock of the rate at {@code progress}, the replay as it stands when this run begins. */
    ProgressLine(Time time, ReplayProgress progress) {
        this.time = time;
        this.startNanos = time.nanoseconds();
        this.readAtStart = progress.offsetsRead();
    }

    String of(ReplayProgress progress) {
        long total = progress.offsetsInRange();
        long read = progress.offsetsRead();
        int filled = total == 0 ? BAR_WIDTH : (int) (BAR_WIDTH * read / total);
        double seconds = (double) (time.nanoseconds() - startNanos) / TimeUnit.SECONDS.toNanos(1);
        double rate = seconds > 0 ? (read - readAtStart) / seconds : 0;
        String eta = read >= total ? duration(0) : rate > 0 ? duration(Math.round((total - read) / rate)) : UNKNOWN;
        ReplayCounts c = progress.counts();
        return "[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "] " + read + "/" + total + " ("
                + (total == 0 ? 100 : 100 * read / total) + "%)  " + (rate > 0 ? rate(rate) : UNKNOWN) + "/s  ETA "
                + eta + "  replayed " + c.replayed() + ", again " + c.deadLetteredAgain() + ", parked " + c.parked()
                + ", skipped " + (c.skippedByFilter() + c.skippedTruncated() + c.skippedUnroutable()
                + c.alreadyReplayed()) + ", refused " + c.refused();
    }

    private static String rate(double rate) {
        return rate >= 100 ? String.valueOf(Math.round(rate))
                : String.format(Locale.ROOT, rate >= 1 ? "%.1f" : "%.2f", rate);
    }

    /** {@code h:mm:ss}. */
    private static String duration(long seconds) {
        return String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }
}
