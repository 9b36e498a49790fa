package dev.quarantine.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.quarantine.sandbox.ProcSockets;

/**
 * What a worker JVM holds at one moment, read from outside it on Linux: heap in use after a full GC
 * ({@code jcmd <pid> GC.run}, then {@code GC.heap_info}), live threads ({@code /proc/<pid>/status}), and
 * established TCP connections to one port ({@link ProcSockets}).
 */
record WorkerFootprint(double heapMiB, int threads, int connections) {

    private static final Pattern USED = Pattern.compile("total \\d+K, used (\\d+)K");

    static WorkerFootprint of(long pid, int brokerPort) {
        jcmd(pid, "GC.run");
        return new WorkerFootprint(heapAfterGc(pid), threads(pid), connections(pid, brokerPort));
    }

    @Override
    public String toString() {
        return String.format("heap after full GC %.0f MiB, %d threads, %d connections to the broker", heapMiB,
                threads, connections);
    }

    private static double heapAfterGc(long pid) {
        Matcher used = USED.matcher(jcmd(pid, "GC.heap_info"));
        return used.find() ? Long.parseLong(used.group(1)) / 1024.0 : Double.NaN;
    }

    private static int threads(long pid) {
        try (Stream<String> lines = Files.lines(Path.of("/proc", String.valueOf(pid), "status"))) {
            return lines.filter(l -> l.startsWith("Threads:")).mapToInt(l -> Integer.parseInt(l.substring(8).trim()))
                    .findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Established connections of the process whose remote port is {@code port}; -1 when they cannot be read. */
    private static int connections(long pid, int port) {
        try {
            return ProcSockets.connectionsTo(ProcSockets.of(pid), port);
        } catch (UncheckedIOException e) {
            return -1;
        }
    }

    private static String jcmd(long pid, String command) {
        try {
            Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    String.valueOf(pid), command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes());
            process.waitFor(60, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
