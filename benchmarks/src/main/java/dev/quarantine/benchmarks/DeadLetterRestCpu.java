package dev.quarantine.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of the processes of the benchmark (each worker, the broker, this client JVM) over one run, to say per
 * request how much each spends: on 2 cores, 200 requests/s leave at most 10 ms of CPU per request for all of them.
 */
final class DeadLetterRestCpu {

    private final Map<String, Long> pids;
    private final Map<String, Double> before = new LinkedHashMap<>();

    /** Starts counting for the named processes (the broker: every other child of this JVM). */
    DeadLetterRestCpu(List<Long> workerPids) {
        pids = new LinkedHashMap<>();
        for (int i = 0; i < workerPids.size(); i++) {
            pids.put("worker " + (i + 1), workerPids.get(i));
        }
        pids.put("client", ProcessHandle.current().pid());
        ProcessHandle.current().children().filter(p -> !workerPids.contains(p.pid()))
                .forEach(p -> pids.put("broker", p.pid()));
        pids.forEach((name, pid) -> before.put(name, cpuSeconds(pid)));
    }

    /** CPU milliseconds per second of each process since this was created, over {@code seconds}. */
    String perSecond(double seconds) {
        return per("CPU ms per second with no requests:", seconds);
    }

    /** CPU milliseconds per request of each process since this was created. */
    String perRequest(int requests) {
        return per("CPU ms per request:", requests);
    }

    private String per(String title, double divisor) {
        StringBuilder text = new StringBuilder(title);
        double total = 0;
        for (Map.Entry<String, Long> process : pids.entrySet()) {
            double ms = (cpuSeconds(process.getValue()) - before.get(process.getKey())) * 1000 / divisor;
            total += ms;
            text.append(String.format(" %s %.2f,", process.getKey(), ms));
        }
        return text.append(String.format(" together %.2f", total)).toString();
    }

    private static double cpuSeconds(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(d -> d.toNanos() / 1e9)
                .orElse(Double.NaN);
    }
}
