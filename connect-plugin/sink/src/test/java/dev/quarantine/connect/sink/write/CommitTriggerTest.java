package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.quarantine.connect.sink.TestData;

/** The rows of {@link CommitTrigger}'s table, one test each. */
class CommitTriggerTest {

    private final CommitTrigger trigger = new CommitTrigger(Duration.ofMillis(100), 10, 1_000);

    @Test
    void hasNothingToWriteOrWaitForWhenNothingWaits() {
        assertThat(trigger.dueInMs(0, 0, OptionalLong.empty(), 5_000)).isEmpty();
    }

    @Test
    void writesEveryPutAtOnceWithAnIntervalOfZero() {
        CommitTrigger perPut = new CommitTrigger(Duration.ZERO, 10, 1_000);

        assertThat(perPut.dueInMs(1, 1, OptionalLong.of(5_000), 5_000)).hasValue(0);
    }

    /** Rows of one partition whose oldest waiting record came at 5,000 ms: two cases each, then what they expect. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void writesWhenTheRowSaysSo(String row, List<Due> cases) {
        for (Due due : cases) {
            assertThat(trigger.dueInMs(due.records, due.bytes, OptionalLong.of(5_000), due.nowMs))
                    .as(due.why).hasValue(due.inMs);
        }
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("writesAtOnceWhenMaxRecordsWait",
                        List.of(new Due(10, 1, 5_000, 0), new Due(9, 1, 5_000, 100))),
                Arguments.of("writesAtOnceWhenTheEstimatedBytesReachTheBound",
                        List.of(new Due(1, 1_000, 5_000, 0), new Due(1, 999, 5_000, 100))),
                Arguments.of("writesWhenTheOldestRecordHasWaitedTheInterval",
                        List.of(new Due(1, 1, 5_100, 0), new Due(1, 1, 6_000, 0))),
                Arguments.of("waitsTheRestOfTheIntervalOtherwise",
                        List.of(new Due(1, 1, 5_030, 70), new Due(1, 1, 4_990, 100, "a clock stepping back"))));
    }

    /** {@code records} records of {@code bytes} bytes waiting at {@code nowMs}: due in {@code inMs}. */
    private record Due(int records, long bytes, long nowMs, long inMs, String why) {

        Due(int records, long bytes, long nowMs, long inMs) {
            this(records, bytes, nowMs, inMs, records + " records, " + bytes + " bytes at " + nowMs + " ms");
        }
    }

    @Test
    void addsUpTheWaitingRecordsOfAllPartitionsFromTheOldest() {
        PendingRecords first = new PendingRecords();
        first.add(TestData.records("orders", 0, 0, 6), OptionalLong.empty(), 5_000);
        PendingRecords second = new PendingRecords();
        second.add(TestData.records("orders", 1, 0, 3), OptionalLong.empty(), 5_050);

        assertThat(trigger.dueInMs(List.of(first, second), 5_060)).as("9 records, the oldest 60 ms old").hasValue(40);
        second.add(TestData.records("orders", 1, 3, 4), OptionalLong.empty(), 5_060);
        assertThat(trigger.dueInMs(List.of(first, second), 5_060)).as("10 records").hasValue(0);
        assertThat(trigger.dueInMs(List.of(new PendingRecords()), 5_060)).isEmpty();
    }
}
