package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told: the harness's time, moved by the script, never by waiting. */
final class MovableClock extends Clock {

    private Instant now = Instant.parse("2026-12-03T06:00:00Z");

    synchronized void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
