package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;

class ProducerMemoryTest {

    private static final long MIB = 1024 * 1024;
    private static final long DEFAULT_MEMORY = TransactionalSinkConfig.PRODUCERS_MEMORY_BYTES_DEFAULT;

    private static Map<String, Object> sized(long memory, int producers, Object... given) {
        Map<String, Object> configs = new HashMap<>();
        for (int i = 0; i < given.length; i += 2) {
            configs.put((String) given[i], given[i + 1]);
        }
        ProducerMemory.size(configs, memory, producers);
        return configs;
    }

    @Test
    void fewProducersGetTheLargestBatchesAndAShareOfTheBuffer() {
        assertThat(sized(DEFAULT_MEMORY, 4, new Object[0])).containsEntry("batch.size", 256 * 1024)
                .containsEntry("buffer.memory", 16 * MIB);
    }

    @Test
    void oneProducerKeepsKafkasDefaultBufferAtMost() {
        assertThat(sized(DEFAULT_MEMORY, 1, new Object[0])).containsEntry("batch.size", 256 * 1024)
                .containsEntry("buffer.memory", 32 * MIB);
    }

    @Test
    void aThousandProducersShareTheMemory() {
        assertThat(sized(DEFAULT_MEMORY, 1000, new Object[0])).containsEntry("batch.size", 67_108)
                .containsEntry("buffer.memory", MIB);
    }

    @Test
    void batchesNeverShrinkBelowKafkasDefault() {
        assertThat(sized(DEFAULT_MEMORY, 100_000, new Object[0])).containsEntry("batch.size", 16 * 1024);
    }

    @Test
    void bufferNeverShrinksBelowTheLargestRequestSoTheSameRecordsArePoison() {
        assertThat(sized(DEFAULT_MEMORY, 1000, "max.request.size", "4194304"))
                .containsEntry("buffer.memory", 4 * MIB);
    }

    @Test
    void sizesTheUserSetWin() {
        assertThat(sized(DEFAULT_MEMORY, 1000, "batch.size", "131072", "buffer.memory", "8388608"))
                .containsEntry("batch.size", "131072").containsEntry("buffer.memory", "8388608");
    }

    @Test
    void bufferHoldsAtLeastOneBatchTheUserSet() {
        assertThat(sized(DEFAULT_MEMORY, 1000, "batch.size", "2097152")).containsEntry("buffer.memory", 2 * MIB);
    }

    private static Map<String, Object> slotSized(int slots, int partitionsWritten, Object... given) {
        Map<String, Object> configs = new HashMap<>();
        for (int i = 0; i < given.length; i += 2) {
            configs.put((String) given[i], given[i + 1]);
        }
        ProducerMemory.sizeSlot(configs, DEFAULT_MEMORY, slots, partitionsWritten);
        return configs;
    }

    @Test
    void theDefaultSlotHoldsTheTasksMemoryAndTwoBatchesPerPartitionItWrites() {
        assertThat(slotSized(1, 1000)).as("design 2.6: 1,000 partitions per slot, about 32 KiB")
                .containsEntry("buffer.memory", 64 * MIB).containsEntry("batch.size", 33_554);
    }

    @Test
    void slotsShareTheTasksMemory() {
        assertThat(slotSized(2, 1000)).containsEntry("buffer.memory", 32 * MIB).containsEntry("batch.size", 16_777);
    }

    @Test
    void aSlotWritingFewPartitionsGetsTheLargestBatches() {
        assertThat(slotSized(1, 8)).containsEntry("batch.size", 256 * 1024);
        assertThat(slotSized(1, 0)).as("nothing assigned yet").containsEntry("batch.size", 256 * 1024);
    }

    @Test
    void pastTwoThousandFortyEightPartitionsPerSlotTheFloorBinds() {
        assertThat(slotSized(1, 2048)).containsEntry("batch.size", 16 * 1024);
        assertThat(slotSized(1, 3000)).containsEntry("batch.size", 16 * 1024);
    }

    @Test
    void aSlotsBatchIsSizedByTheBufferTheUserSetAndTheUsersSizesWin() {
        assertThat(slotSized(1, 100, "buffer.memory", "8388608")).containsEntry("buffer.memory", "8388608")
                .containsEntry("batch.size", 41_943);
        assertThat(slotSized(1, 100, "batch.size", "131072")).containsEntry("batch.size", "131072")
                .containsEntry("buffer.memory", 64 * MIB);
    }

    @Test
    void aSlotsBufferHoldsTheLargestRequestAndTheBatchTheUserSet() {
        assertThat(slotSized(64, 10, "max.request.size", "4194304")).containsEntry("buffer.memory", 4 * MIB);
        assertThat(slotSized(64, 10, "batch.size", "2097152")).containsEntry("buffer.memory", 2 * MIB);
    }
}
