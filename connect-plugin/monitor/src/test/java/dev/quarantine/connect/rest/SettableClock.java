package dev.quarantine.connect.rest;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test sets and moves by hand (UTC). */
final class SettableClock extends Clock {
    long millis;

    SettableClock(long millis) {
        this.millis = millis;
    }

    SettableClock() {
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
