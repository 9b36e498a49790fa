package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.records;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The rows of {@link SeekingContext}'s table: the first records of a partition delivered after the task sought it. */
class SeekingContextTest {

    private final TopicPartition partition = new TopicPartition("orders", 0);
    private final FakeSinkTaskContext worker = new FakeSinkTaskContext();
    private final SeekingContext context = new SeekingContext(worker);

    @Test
    void acceptsEveryBatchOfAPartitionItNeverSought() {
        context.delivering();

        assertThat(context.gapAfterSeek(partition, records("orders", 0, 7, 9))).isEmpty();
    }

    @Test
    void acceptsRecordsStartingWhereTheSeekAsked() {
        seekAndPoll(5);

        assertThat(context.gapAfterSeek(partition, records("orders", 0, 5, 9))).isEmpty();
        assertThat(context.gapAfterSeek(partition, records("orders", 0, 12, 14))).as("the seek was met").isEmpty();
    }

    @Test
    void acceptsRecordsBelowTheSeekAndKeepsWaitingForIt() {
        seekAndPoll(5);

        assertThat(context.gapAfterSeek(partition, records("orders", 0, 1, 4))).isEmpty();
        assertThat(context.gapAfterSeek(partition, records("orders", 0, 7, 9))).as("still waiting for 5").hasValue(5);
    }

    @Test
    void refusesRecordsStartingPastTheSeek() {
        seekAndPoll(5);

        assertThat(context.gapAfterSeek(partition, records("orders", 0, 7, 9))).hasValue(5);
    }

    @Test
    void acceptsTheSameGapDeliveredAgainAfterAPutThatRefusedItReturned() {
        refuseThenDeliverAgain(7, 9, true);

        assertThat(context.gapAfterSeek(partition, records("orders", 0, 7, 9))).isEmpty();
    }

    @Test
    void refusesTheSameGapAgainWhenThePutThatRefusedItThrew() {
        refuseThenDeliverAgain(7, 9, false); // no putReturned: Connect delivers the same batch again

        assertThat(context.gapAfterSeek(partition, records("orders", 0, 7, 9))).hasValue(5);
    }

    @Test
    void refusesAnotherGapAfterAGapWasRefused() {
        refuseThenDeliverAgain(9, 12, true);

        assertThat(context.gapAfterSeek(partition, records("orders", 0, 7, 9))).hasValue(5);
    }

    @Test
    void forgetsTheSeekOfAClosedPartition() {
        seekAndPoll(5);
        context.forget(List.of(partition));

        assertThat(context.gapAfterSeek(partition, records("orders", 0, 7, 9))).isEmpty();
    }

    @Test
    void passesTheSeeksToTheWorker() {
        seekAndPoll(5);

        assertThat(worker.seeks).containsEntry(partition, 5L);
    }

    /**
     * After a seek to 5, a put is given {@code from..to} (a gap, refused) and seeks to 5 again; then returns, or
     * throws ({@code putReturned} false), and Connect delivers the next batch.
     */
    private void refuseThenDeliverAgain(long from, long to, boolean putReturned) {
        seekAndPoll(5);
        context.gapAfterSeek(partition, records("orders", 0, from, to));
        context.offset(partition, 5);
        if (putReturned) {
            context.putReturned();
        }
        context.delivering();
    }

    private void seekAndPoll(long offset) {
        context.offset(partition, offset);
        context.putReturned();
        context.delivering();
    }
}
