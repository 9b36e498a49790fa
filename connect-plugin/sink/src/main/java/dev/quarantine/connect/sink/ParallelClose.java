package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;

import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.write.PartitionWriter;

/**
 * Closes the writers of several partitions at the same time, each on a thread of its own, within one deadline
 * together (a producer's close waits for its requests in flight). A close that fails with anything at all is logged
 * at ERROR once, with its cause and the partition: on a thread of its own it would otherwise die printing only to
 * standard error. Closing stays best effort: the partition's next writer fences the transactional id, whatever state
 * this one left it in.
 *
 * @param <T> what is closed: {@link PartitionWriter} ({@link #WRITERS}); any type in tests
 */
final class ParallelClose<T> {

    private static final Logger log = LoggerFactory.getLogger(ParallelClose.class);
    /** Past the deadline, how long threads still get to finish. */
    private static final Duration GRACE = Duration.ofMillis(500);

    static final ParallelClose<PartitionWriter> WRITERS = new ParallelClose<>(PartitionWriter::source,
            PartitionWriter::close, ParallelClose::logFailure);

    private final Function<T, TopicPartition> source;
    private final BiConsumer<T, Duration> close;
    private final BiConsumer<TopicPartition, Throwable> failed;

    ParallelClose(Function<T, TopicPartition> source, BiConsumer<T, Duration> close,
                  BiConsumer<TopicPartition, Throwable> failed) {
        this.source = source;
        this.close = close;
        this.failed = failed;
    }

    /** Closes every one of {@code items}, each within {@code timeout}; returns when all did, or the time is up. */
    void closeAll(Collection<T> items, Duration timeout) {
        List<Thread> closing = new ArrayList<>();
        for (T item : items) {
            TopicPartition partition = source.apply(item);
            Thread thread = new Thread(() -> closeOne(item, partition, timeout), "quarantine-sink-close-" + partition);
            thread.setDaemon(true);
            thread.start();
            closing.add(thread);
        }
        long deadline = System.nanoTime() + timeout.plus(GRACE).toNanos();
        try {
            for (Thread thread : closing) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeOne(T item, TopicPartition partition, Duration timeout) {
        try {
            close.accept(item, timeout);
        } catch (Throwable e) {
            failed.accept(partition, e);
        }
    }

    private static void logFailure(TopicPartition partition, Throwable error) {
        log.error("Could not close the target producer of source partition {}; its next writer fences it", partition,
                error);
    }
}
