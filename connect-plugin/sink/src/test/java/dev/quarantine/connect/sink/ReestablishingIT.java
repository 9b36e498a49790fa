package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * Re-establishing partitions on a real broker (issue 22, item 6): a task whose writer was fenced does not fence the
 * new owner before its consumer's next poll.
 */
@ExtendWith(LocalKafkaExtension.class)
class ReestablishingIT {

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final TopicPartition first;

    ReestablishingIT(LocalKafka kafka) {
        this.kafka = kafka;
        fixture = new TaskFixture(kafka, "reestablish", "commit.interval.ms", "30000", "commit.max.records", "30");
        fixture.createTopics();
        first = new TopicPartition(fixture.source, 0);
    }

    @Test
    void aFencedTaskWhoseConsumerStillListsThePartitionDoesNotFenceTheNewOwnerBeforeItsNextPoll() {
        FakeSinkTaskContext zombieContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask zombie = fixture.startAssigned(zombieContext, first);
        zombie.put(records(first.topic(), 0, 0, 30)); // committed
        FakeSinkTaskContext ownerContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask owner = fixture.startAssigned(ownerContext, first);
        owner.put(List.of()); // open makes no round trip: this put fences the zombie, whose consumer has not yet
        // seen the rebalance

        zombie.put(records(first.topic(), 0, 30, 60)); // fenced, with the partition still in its assignment
        assertThat(zombieContext.seeks).as("sought back to its committed progress").containsEntry(first, 30L);
        zombieContext.assigned.clear(); // its next poll: the rebalance reaches it, Connect closes the partition
        zombie.close(List.of(first));
        owner.put(records(first.topic(), 0, 30, 60));

        assertThat(ownerContext.metrics.value("partitions-reestablished-total")).as("the owner was never fenced")
                .isEqualTo(0.0);
        assertThat(owner.preCommit(Map.of())).containsEntry(first, new OffsetAndMetadata(60));
        assertThat(values(committed(kafka, fixture.target)))
                .containsExactlyElementsOf(IntStream.range(0, 60).mapToObj(i -> "v" + i).toList());
        assertThat(zombie.preCommit(Map.of())).as("the zombie closed the partition").isEmpty();
    }
}
