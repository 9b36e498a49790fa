package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

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

    @Test
    void writesAtOnceWhenMaxRecordsWait() {
        assertThat(trigger.dueInMs(10, 1, OptionalLong.of(5_000), 5_000)).hasValue(0);
        assertThat(trigger.dueInMs(9, 1, OptionalLong.of(5_000), 5_000)).hasValue(100);
    }

    @Test
    void writesAtOnceWhenTheEstimatedBytesReachTheBound() {
        assertThat(trigger.dueInMs(1, 1_000, OptionalLong.of(5_000), 5_000)).hasValue(0);
        assertThat(trigger.dueInMs(1, 999, OptionalLong.of(5_000), 5_000)).hasValue(100);
    }

    @Test
    void writesWhenTheOldestRecordHasWaitedTheInterval() {
        assertThat(trigger.dueInMs(1, 1, OptionalLong.of(5_000), 5_100)).hasValue(0);
        assertThat(trigger.dueInMs(1, 1, OptionalLong.of(5_000), 6_000)).hasValue(0);
    }

    @Test
    void waitsTheRestOfTheIntervalOtherwise() {
        assertThat(trigger.dueInMs(1, 1, OptionalLong.of(5_000), 5_030)).hasValue(70);
        assertThat(trigger.dueInMs(1, 1, OptionalLong.of(5_000), 4_990)).as("a clock stepping back").hasValue(100);
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
