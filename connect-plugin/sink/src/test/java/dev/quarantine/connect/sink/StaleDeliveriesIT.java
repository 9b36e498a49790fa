package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * Records Connect delivers from before a seek of the task, on a real broker (issue 22): a batch kept for redelivery
 * after a RetriableException and not purged when its partition was revoked (WorkerSinkTask purges by the topic an
 * SMT such as RegexRouter gave the records), delivered after the partition was opened again and sought to its
 * committed progress.
 */
@ExtendWith(LocalKafkaExtension.class)
class StaleDeliveriesIT {

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final TopicPartition partition;
    private final FakeSinkTaskContext context = new FakeSinkTaskContext();

    StaleDeliveriesIT(LocalKafka kafka) {
        this.kafka = kafka;
        fixture = new TaskFixture(kafka, "stale", "commit.interval.ms", "30000", "commit.max.records", "5");
        fixture.createTopics();
        partition = new TopicPartition(fixture.source, 0);
    }

    @Test
    void refusesABatchFromBeforeTheReopeningSeekInsteadOfWritingPastTheRecordsDroppedOnRevoke() {
        TransactionalKafkaSinkTask task = startWithThePartition();
        task.put(records(fixture.source, 0, 0, 5)); // committed: progress 5
        task.put(records(fixture.source, 0, 5, 9)); // waiting
        task.close(List.of(partition)); // revoked: 5..8 dropped, uncommitted
        task.open(List.of(partition)); // assigned again: sought to 5

        // the batch Connect kept, fetched before the seek
        assertRefusedAndSoughtAgain(task, records(fixture.source, 0, 9, 13), 5, "to the committed progress");
        task.put(records(fixture.source, 0, 5, 15)); // delivered from the seek

        assertCopied("every record once, none skipped", LongStream.range(0, 15));
    }

    @Test
    void refusesABatchFromBeforeTheReopeningOfAPartitionClosedBeforeItsFirstCommit() {
        TransactionalKafkaSinkTask task = startWithThePartition();
        task.put(records(fixture.source, 0, 0, 4)); // waiting, nothing committed yet
        task.close(List.of(partition)); // revoked: 0..3 dropped
        task.open(List.of(partition)); // assigned again, no progress
        task.put(List.of()); // open makes no round trip: the put after the next poll opens it
        assertThat(context.seeks).as("sought to the first record dropped").containsExactly(Map.entry(partition, 0L));

        // the batch Connect kept, fetched before the revoke
        assertRefusedAndSoughtAgain(task, records(fixture.source, 0, 4, 7), 0, "to the first record dropped");
        task.put(records(fixture.source, 0, 0, 10)); // delivered from the seek

        assertCopied("every record once, none skipped", LongStream.range(0, 10));
    }

    @Test
    void acceptsAGapTheConsumerDeliversAgainFromTheSeekAsTransactionMarkersLeaveThem() {
        TransactionalKafkaSinkTask task = startWithThePartition();
        task.put(records(fixture.source, 0, 0, 5)); // committed: progress 5; offset 5 is the source's commit marker
        task.close(List.of(partition));
        task.open(List.of(partition)); // sought to 5

        // from 6: refused once
        assertRefusedAndSoughtAgain(task, records(fixture.source, 0, 6, 11), 5, "to the committed progress");
        task.put(records(fixture.source, 0, 6, 11)); // from 6 again, after the seek: nothing lies between

        assertCopied("the records on both sides of the marker",
                LongStream.concat(LongStream.range(0, 5), LongStream.range(6, 11)));
    }

    /** A task started over {@link #context} and given {@link #partition}, as Connect assigns and opens it. */
    private TransactionalKafkaSinkTask startWithThePartition() {
        return fixture.startAssigned(context, partition);
    }

    /**
     * Delivers {@code kept}, a batch fetched before {@link #partition}'s last seek: checks that {@code task} refuses
     * it and seeks the partition to {@code offset} again ({@code where}).
     */
    private void assertRefusedAndSoughtAgain(TransactionalKafkaSinkTask task, List<SinkRecord> kept, long offset,
                                             String where) {
        context.seeks.clear();
        task.put(kept);
        assertThat(context.seeks).as("refused, sought %s again", where).containsExactly(Map.entry(partition, offset));
    }

    /** The target read {@code read_committed} holds the values of source {@code offsets}, in order. */
    private void assertCopied(String description, LongStream offsets) {
        assertThat(values(committed(kafka, fixture.target))).as(description)
                .containsExactlyElementsOf(offsets.mapToObj(i -> "v" + i).toList());
    }
}
