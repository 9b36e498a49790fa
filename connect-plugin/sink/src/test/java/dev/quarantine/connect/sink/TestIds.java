package dev.quarantine.connect.sink;

import java.util.List;
import java.util.stream.IntStream;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * The transactional ids a test fences or describes by name (docs/design/sink-ownership.md 5.5, "ids only"): a source
 * partition is written by the slot of the task it is assigned to, {@code <prefix>:task#<n>.<j>}, not by an id of its
 * own.
 */
final class TestIds {

    private TestIds() {
    }

    /** The id that writes {@code partition} in task 0 of {@code fixture} (its prefix is the source topic's name). */
    static String holderOf(TaskFixture fixture, TopicPartition partition) {
        return holderOf(fixture.source, 0, partition);
    }

    /** The id that writes {@code partition} in task {@code task} of the connector with {@code prefix}. */
    static String holderOf(String prefix, int task, TopicPartition partition) {
        List<Integer> slots = IntStream.range(0, TaskSlots.SLOTS).boxed().toList();
        return OwnershipRecord.taskId(prefix, task, TaskSlot.of(slots, partition));
    }
}
