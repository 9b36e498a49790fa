package dev.quarantine.connect.sink.write;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The batch and buffer sizes of a task's target producers, one per source partition, so that together they stay
 * within {@code producers.memory.bytes} however many partitions the task writes. A producer keeps the batch buffers
 * it has used (Kafka's BufferPool pools buffers of {@code batch.size}), up to its {@code buffer.memory}; each
 * producer gets an equal share:
 *
 * <table>
 * <caption>Each producer's sizes, share = producers.memory.bytes / producers of the task</caption>
 * <tr><th>setting</th><th>value</th><th>why</th></tr>
 * <tr><td>batch.size</td><td>the share, between 16 KiB (Kafka's default) and 256 KiB</td><td>a partition's producer
 *     writes mostly one target partition and flushes at every commit: 16 KiB would mean ~15 records of 1 KiB per
 *     produce request when it has the memory for more</td></tr>
 * <tr><td>buffer.memory</td><td>the share, at most Kafka's 32 MiB, at least max.request.size and batch.size</td>
 *     <td>a record larger than buffer.memory would be poison where Kafka's default takes it: the floor keeps the
 *     same records poison as with the defaults</td></tr>
 * </table>
 * A {@code target.producer.batch.size} or {@code target.producer.buffer.memory} that is set wins.
 *
 * <p>Per slot ({@link #sizeSlot}, docs/design/sink-ownership.md 2.6 "Producer memory", for the task's slot producers
 * from step 4c on): a slot's one producer writes every target and dead-letter partition its source partitions map to,
 * and Kafka's BufferPool hands each open batch a {@code batch.size} buffer however small its records, so the batch
 * shrinks with the partitions written, not the buffer:
 *
 * <table>
 * <caption>A slot producer's sizes</caption>
 * <tr><th>setting</th><th>value</th></tr>
 * <tr><td>buffer.memory</td><td>producers.memory.bytes / producers.per.task (no 32 MiB cap: one producer holds the
 *     task's share), at least max.request.size and a batch.size that is set</td></tr>
 * <tr><td>batch.size</td><td>buffer.memory / (2 x the partitions the slot writes), between 16 KiB and 256 KiB: two
 *     batches per partition fit (one filling while one is sent); past 2,048 partitions per slot at 64 MiB the floor
 *     binds and a send can wait for buffer memory</td></tr>
 * </table>
 */
final class ProducerMemory {

    static final int MIN_BATCH_BYTES = 16 * 1024;
    static final int MAX_BATCH_BYTES = 256 * 1024;
    static final long MAX_BUFFER_BYTES = 32L * 1024 * 1024;
    private static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

    private ProducerMemory() {
    }

    /** Adds batch.size and buffer.memory, where {@code configs} does not set them, for one of {@code producers}. */
    static void size(Map<String, Object> configs, long memoryBytes, int producers) {
        long share = memoryBytes / Math.max(1, producers);
        configs.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, (int) clamp(share, MIN_BATCH_BYTES, MAX_BATCH_BYTES));
        Object maxRequest = configs.getOrDefault(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, DEFAULT_MAX_REQUEST_BYTES);
        try {
            long floor = Math.max(Long.parseLong(configs.get(ProducerConfig.BATCH_SIZE_CONFIG).toString().trim()),
                    Long.parseLong(maxRequest.toString().trim()));
            configs.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG, Math.max(floor, Math.min(share,
                    MAX_BUFFER_BYTES)));
        } catch (NumberFormatException e) {
            // a target.producer.* size that is not a number: the producer refuses it, naming the setting
        }
    }

    /**
     * Adds batch.size and buffer.memory, where {@code configs} does not set them, for one of {@code slots} slot
     * producers writing {@code partitionsWritten} target and dead-letter partitions; called at each (re)initialisation,
     * as the partitions a slot writes change. A set buffer.memory that is a number is the buffer the batch is sized by.
     */
    static void sizeSlot(Map<String, Object> configs, long memoryBytes, int slots, int partitionsWritten) {
        Object maxRequest = configs.getOrDefault(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, DEFAULT_MAX_REQUEST_BYTES);
        try {
            long floor = Long.parseLong(maxRequest.toString().trim());
            Object batch = configs.get(ProducerConfig.BATCH_SIZE_CONFIG);
            if (batch != null) {
                floor = Math.max(floor, Long.parseLong(batch.toString().trim()));
            }
            configs.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG, Math.max(memoryBytes / Math.max(1, slots), floor));
            long held = Long.parseLong(configs.get(ProducerConfig.BUFFER_MEMORY_CONFIG).toString().trim());
            configs.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, (int) clamp(held / (2L * Math.max(1,
                    partitionsWritten)), MIN_BATCH_BYTES, MAX_BATCH_BYTES));
        } catch (NumberFormatException e) {
            // a target.producer.* size that is not a number: the producer refuses it, naming the setting
        }
    }

    private static long clamp(long value, long min, long max) {
        return Math.max(min, Math.min(max, value));
    }
}
