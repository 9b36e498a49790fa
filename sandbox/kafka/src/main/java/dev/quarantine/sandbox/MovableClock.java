package dev.quarantine.sandbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock (UTC) that moves only when a test moves it: time in a unit test is set by the test, never waited for. */
public final class MovableClock extends Clock {

    private Instant now;

    /** A clock standing at {@code start}. */
    public MovableClock(Instant start) {
        this.now = start;
    }

    /** A clock standing at 2026-12-03T06:00:00Z, for tests to which only the time that passes matters. */
    public MovableClock() {
        this(Instant.parse("2026-12-03T06:00:00Z"));
    }

    public synchronized void advance(Duration by) {
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
