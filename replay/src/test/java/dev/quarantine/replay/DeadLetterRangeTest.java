package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/** What {@link DeadLetterRange} reads of the dead-letter topic: the replay's captured range, never past it. */
class DeadLetterRangeTest {

    private static final String DLQ = "orders.dlq";

    @Test
    void aPartitionAddedAfterTheRangeWasCapturedIsNotRead() {
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
        TopicPartition captured = new TopicPartition(DLQ, 0);
        TopicPartition added = new TopicPartition(DLQ, 1);
        consumer.updateBeginningOffsets(Map.of(captured, 0L, added, 0L));
        ReplayProgress progress = ReplayProgress.started("r-1", DLQ, Uuid.randomUuid(), Map.of(0, 0L), Map.of(0, 2L),
                Instant.now());
        DeadLetterRange range = new DeadLetterRange(new ReplayConfig(ReplayConfigTest.settings()), consumer);

        range.open(List.of(captured, added), progress);
        consumer.addRecord(new ConsumerRecord<>(DLQ, 0, 0, new byte[0], new byte[0]));

        assertThat(consumer.assignment()).containsExactly(captured);
        assertThat(range.poll(progress)).singleElement().satisfies(r -> assertThat(r.partition()).isZero());
    }
}
