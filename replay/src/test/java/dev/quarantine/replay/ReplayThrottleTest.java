package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** The throttle's rows, driven by a fake clock: nothing here sleeps. */
class ReplayThrottleTest {

    private final FakeTime time = new FakeTime();

    private ReplayThrottle throttle(long records, long bytes) {
        return new ReplayThrottle(records == 0 ? OptionalLong.empty() : OptionalLong.of(records),
                bytes == 0 ? OptionalLong.empty() : OptionalLong.of(bytes), time);
    }

    @Test
    void withoutLimitsNeverCutsNorWaits() {
        ReplayThrottle throttle = throttle(0, 0);

        assertThat(throttle.limited()).isFalse();
        assertThat(throttle.keep(new long[] {1_000_000, 1_000_000, 5})).isEqualTo(3);
        throttle.charge(1_000_000, 1_000_000_000);
        assertThat(throttle.owed()).isZero();
        assertThat(throttle.awaitPaid()).isTrue();
        assertThat(time.slept).isZero();
    }

    @Test
    void aBatchIsCutToOneSecondsWorthOfRecordsCountingOnlyThoseWritten() {
        ReplayThrottle throttle = throttle(2, 0);

        assertThat(throttle.keep(new long[] {10, 10, 10, 10})).isEqualTo(2);
        assertThat(throttle.keep(new long[] {-1, 10, -1, -1, 10, -1, 10})).as("skipped ones cost nothing")
                .isEqualTo(6);
        assertThat(throttle.keep(new long[] {-1, -1, -1})).isEqualTo(3);
    }

    @Test
    void aBatchIsCutToOneSecondsWorthOfBytesButKeepsAtLeastTheFirstWritten() {
        ReplayThrottle throttle = throttle(0, 1000);

        assertThat(throttle.keep(new long[] {400, 400, 400})).isEqualTo(2);
        assertThat(throttle.keep(new long[] {-1, 5000, 10})).as("one dead letter larger than a second's bytes")
                .isEqualTo(2);
        assertThat(throttle.keep(new long[] {600, 400, 1})).isEqualTo(2);
    }

    @Test
    void withBothLimitsTheStricterOneCutsAndDecidesTheWait() {
        ReplayThrottle throttle = throttle(10, 1000);

        assertThat(throttle.keep(new long[] {50, 50, 50})).as("3 records, 150 bytes: within both").isEqualTo(3);
        assertThat(throttle.keep(new long[] {300, 300, 300, 300})).as("bytes stricter").isEqualTo(3);
        throttle.charge(5, 100);
        assertThat(throttle.owed()).as("5 of 10 records: half a second; 100 of 1000 bytes: a tenth")
                .isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void theNextStepWaitsWhatTheLastBatchCostAndNoMore() {
        ReplayThrottle throttle = throttle(100, 0);

        throttle.charge(100, 0);
        assertThat(throttle.owed()).isEqualTo(Duration.ofSeconds(1));
        time.advance(Duration.ofMillis(400));
        assertThat(throttle.owed()).as("the time spent writing counts").isEqualTo(Duration.ofMillis(600));

        assertThat(throttle.awaitPaid()).isTrue();
        assertThat(time.slept).isEqualTo(Duration.ofMillis(600));
        assertThat(throttle.owed()).isZero();
    }

    @Test
    void aLongDebtIsWaitedAtMostOneSecondAtATime() {
        ReplayThrottle throttle = throttle(0, 1000);

        throttle.charge(1, 3500);
        assertThat(throttle.awaitPaid()).isFalse();
        assertThat(time.slept).isEqualTo(ReplayThrottle.MAX_WAIT);
        assertThat(throttle.awaitPaid()).isFalse();
        assertThat(throttle.awaitPaid()).isFalse();
        assertThat(throttle.awaitPaid()).isTrue();
        assertThat(time.slept).isEqualTo(Duration.ofMillis(3500));
    }

    @Test
    void chargesAddUpWhileUnpaidAndAPauseSavesNothingUp() {
        ReplayThrottle throttle = throttle(10, 0);

        throttle.charge(10, 0);
        throttle.charge(5, 0);
        assertThat(throttle.owed()).isEqualTo(Duration.ofMillis(1500));
        time.advance(Duration.ofSeconds(60));
        assertThat(throttle.owed()).isZero();
        throttle.charge(10, 0);
        assertThat(throttle.owed()).as("a minute idle is no credit").isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aFractionOfASecondIsRoundedUpNeverDown() {
        ReplayThrottle throttle = throttle(3, 0);

        throttle.charge(1, 0);
        assertThat(throttle.owed()).isEqualTo(Duration.ofNanos(333_333_334));
        assertThat(throttle.awaitPaid()).isTrue();
        assertThat(time.slept).isEqualTo(Duration.ofMillis(334));
    }

    @Test
    void aBatchCostsAtMostADay() {
        ReplayThrottle throttle = throttle(0, 1);

        throttle.charge(1, Long.MAX_VALUE);
        assertThat(throttle.owed()).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void countsTheKeyValueAndHeadersOfADeadLetterAsRead() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader("h1", "abc".getBytes(StandardCharsets.UTF_8)));
        headers.add(new RecordHeader("h2", (byte[]) null));
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("dlq", 0, 7, 0L, TimestampType.CREATE_TIME, 4,
                10, new byte[4], new byte[10], headers, Optional.empty());
        ConsumerRecord<byte[], byte[]> tombstone = new ConsumerRecord<>("dlq", 0, 8, 0L, TimestampType.CREATE_TIME,
                -1, -1, null, null, new RecordHeaders(), Optional.empty());

        assertThat(ReplayThrottle.bytesOf(record)).isEqualTo(4 + 10 + 2 + 3 + 2);
        assertThat(ReplayThrottle.bytesOf(tombstone)).isZero();
    }
}
