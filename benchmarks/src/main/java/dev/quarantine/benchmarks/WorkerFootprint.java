package dev.quarantine.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a worker JVM holds at one moment, read from outside it on Linux: heap in use after a full GC
 * ({@code jcmd <pid> GC.run}, then {@code GC.heap_info}), live threads ({@code /proc/<pid>/status}), and
 * established TCP connections to one port (its sockets in {@code /proc/<pid>/fd} matched with {@code /proc/net/tcp}).
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

    /** Established connections of the process whose remote port is {@code port}. */
    private static int connections(long pid, int port) {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            });
            int count = 0;
            String remotePort = String.format(":%04X", port);
            for (String table : List.of("tcp", "tcp6")) {
                Path file = Path.of("/proc", String.valueOf(pid), "net", table);
                if (!Files.exists(file)) {
                    continue;
                }
                for (String line : Files.readAllLines(file)) {
                    String[] fields = line.trim().split("\\s+");
                    if (fields.length > 9 && fields[2].endsWith(remotePort) && "01".equals(fields[3])
                            && inodes.contains(fields[9])) {
                        count++;
                    }
                }
            }
            return count;
        } catch (IOException e) {
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
