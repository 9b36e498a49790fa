package dev.quarantine.benchmarks;

import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;

import javax.management.ObjectName;

import dev.quarantine.sandbox.ProcSockets;

/**
 * What a worker JVM holds at one moment, read from its own metrics through JMX ({@link AttachedJvm}): heap in use after
 * a full GC ({@code MemoryMXBean.gc()}, then the heap's used bytes), live threads ({@code ThreadMXBean}), and the
 * connections its Kafka clients report open (the sum of {@code connection-count} over every producer, consumer, admin
 * and Connect group client of the JVM). The kernel's count of its established TCP connections to the broker
 * ({@link ProcSockets}) is printed beside it as a check: the two differ only by connections opened or closed between
 * the two reads, or by a client that registers no metrics (a {@code client.id} another client of the JVM already holds).
 */
record WorkerFootprint(double heapMiB, int threads, int clientConnections, int sockets) {

    private static final String CLIENTS = "kafka.*:*";

    static WorkerFootprint of(AttachedJvm worker, int brokerPort) {
        MemoryMXBean memory = worker.platform(ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
        memory.gc();
        double heap = memory.getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
        int threads = worker.platform(ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class).getThreadCount();
        return new WorkerFootprint(heap, threads, clientConnections(worker), sockets(worker.pid(), brokerPort));
    }

    @Override
    public String toString() {
        return String.format("heap after full GC %.0f MiB, %d threads, %d connections (clients' connection-count;"
                + " %d sockets to the broker)", heapMiB, threads, clientConnections, sockets);
    }

    /** Each client's {@code <type>-metrics} MBean (its keys: type and client-id only) holds its connection-count. */
    private static int clientConnections(AttachedJvm worker) {
        double sum = 0;
        for (ObjectName name : worker.names(CLIENTS)) {
            String type = name.getKeyProperty("type");
            if (type != null && type.endsWith("-metrics") && name.getKeyProperty("client-id") != null
                    && name.getKeyPropertyList().size() == 2) {
                double count = worker.number(name, "connection-count");
                sum += Double.isNaN(count) ? 0 : count;
            }
        }
        return (int) sum;
    }

    /** Established connections of the process whose remote port is {@code port}; -1 when they cannot be read. */
    private static int sockets(long pid, int port) {
        try {
            return ProcSockets.connectionsTo(ProcSockets.of(pid), port);
        } catch (UncheckedIOException e) {
            return -1;
        }
    }
}
