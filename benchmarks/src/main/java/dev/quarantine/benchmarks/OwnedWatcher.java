package dev.quarantine.benchmarks;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.management.ObjectName;

/**
 * Watches, while a size runs, the sink tasks' {@code partitions-owned} gauges (read from the worker JVM through JMX,
 * summed over the connector's tasks) and notes when they first add up to every source partition: every partition
 * claimed, its earlier holders fenced, its progress read, so the task takes its records. That is "open" in issue 23's
 * sense, before any record of the partition has to be written.
 */
final class OwnedWatcher implements AutoCloseable {

    private static final long EVERY_MS = 200;

    private final AttachedJvm worker;
    private final String pattern;
    private final int partitions;
    private final long startNanos;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Thread thread;
    private volatile long allOwnedNanos;

    private OwnedWatcher(AttachedJvm worker, String connector, int partitions, long startNanos) {
        this.worker = worker;
        this.pattern = "kafka.connect:type=plugins,connector=" + connector + ",*";
        this.partitions = partitions;
        this.startNanos = startNanos;
        this.thread = new Thread(this::loop, "owned-watcher-" + connector);
        thread.setDaemon(true);
    }

    /** Starts watching the tasks of {@code connector} until they own {@code partitions} partitions in all. */
    static OwnedWatcher start(AttachedJvm worker, String connector, int partitions, long startNanos) {
        OwnedWatcher watcher = new OwnedWatcher(worker, connector, partitions, startNanos);
        watcher.thread.start();
        return watcher;
    }

    /** Seconds from {@code startNanos} until the tasks owned every partition; NaN when not seen. */
    double ownedSeconds() {
        long at = allOwnedNanos;
        return at == 0 ? Double.NaN : (at - startNanos) / 1e9;
    }

    @Override
    public void close() {
        stop.countDown();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        try {
            while (!stop.await(EVERY_MS, TimeUnit.MILLISECONDS)) {
                double owned = 0;
                for (ObjectName name : worker.names(pattern)) {
                    double value = worker.number(name, "partitions-owned");
                    owned += Double.isNaN(value) ? 0 : value;
                }
                if (owned >= partitions) {
                    allOwnedNanos = System.nanoTime();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException workerGone) {
            // the worker died or was closed: the run reports that itself
        }
    }
}
