package dev.quarantine.connect.rest;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test sets and moves by hand (UTC). */
public final class SettableClock extends Clock {
    public long millis;

    public SettableClock(long millis) {
        this.millis = millis;
    }

    public SettableClock() {
        this(0);
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
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
