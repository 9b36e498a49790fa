package dev.quarantine.replay;

import java.time.Duration;
import java.util.function.Supplier;

import org.apache.kafka.common.utils.Time;

/** A clock that moves only when told to, or by what is slept on it; it counts what was slept. */
public final class FakeTime implements Time {

    Duration slept = Duration.ZERO;

    public Duration slept() {
        return slept;
    }
    private long nanos = 1_000_000_000_000L;

    public void advance(Duration by) {
        nanos += by.toNanos();
    }

    @Override
    public long milliseconds() {
        return nanos / 1_000_000;
    }

    @Override
    public long nanoseconds() {
        return nanos;
    }

    @Override
    public void sleep(long ms) {
        slept = slept.plusMillis(ms);
        advance(Duration.ofMillis(ms));
    }

    @Override
    public void waitObject(Object obj, Supplier<Boolean> condition, long deadlineMs) {
        throw new UnsupportedOperationException("the replay waits on nothing");
    }
}
