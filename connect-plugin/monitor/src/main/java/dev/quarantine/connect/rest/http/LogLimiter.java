package dev.quarantine.connect.rest.http;

/**
 * Says when a repeated event is logged: the first, then at most one line per interval, with how many happened since
 * the last line. Anyone who reaches a port can make an event happen as often as they like; the log must not grow with
 * it.
 */
public final class LogLimiter {

    private final long intervalMs;
    private long unlogged;
    private boolean everLogged;
    private long loggedMs;

    public LogLimiter(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    /**
     * Counts one event at {@code nowMs}.
     *
     * @return how many events to report in a line now (this one and those not reported yet), 0 for no line
     */
    public synchronized long event(long nowMs) {
        unlogged++;
        if (everLogged && nowMs - loggedMs < intervalMs) {
            return 0;
        }
        long count = unlogged;
        unlogged = 0;
        everLogged = true;
        loggedMs = nowMs;
        return count;
    }
}
