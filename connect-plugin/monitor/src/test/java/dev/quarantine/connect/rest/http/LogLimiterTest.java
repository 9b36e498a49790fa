package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogLimiterTest {

    @Test
    void logsTheFirstEventThenOneLinePerIntervalWithTheCountSinceTheLastLine() {
        LogLimiter limiter = new LogLimiter(1_000);

        assertThat(limiter.event(5_000)).as("the first").isEqualTo(1);
        assertThat(limiter.event(5_001)).isZero();
        assertThat(limiter.event(5_999)).isZero();
        assertThat(limiter.event(6_000)).as("the interval is over: three since the last line").isEqualTo(3);
        assertThat(limiter.event(6_500)).isZero();
        assertThat(limiter.event(9_000)).isEqualTo(2);
    }

    @Test
    void logsTheFirstEventWhateverTheClockReads() {
        assertThat(new LogLimiter(60_000).event(Long.MIN_VALUE + 1)).isEqualTo(1);
        assertThat(new LogLimiter(60_000).event(0)).isEqualTo(1);
        assertThat(new LogLimiter(60_000).event(Long.MAX_VALUE)).isEqualTo(1);
    }
}
