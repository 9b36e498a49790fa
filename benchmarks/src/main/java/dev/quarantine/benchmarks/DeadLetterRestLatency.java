package dev.quarantine.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.quarantine.benchmarks.DeadLetterRestLoad.Target;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/**
 * Latency of the dead-letter monitor's {@code GET /dead-letters} (the Connect REST extension
 * {@code DeadLetterRestExtension}) on loopback: two Connect workers of one group (their own JVMs, the plugin loaded
 * from plugin.path, the monitor on each, no REST authentication), three dead-letter topics holding a few thousand
 * records with Connect-, Streams- and no headers. Once both workers answer the right totals: 100 requests to each,
 * one at a time (service time); the processes' CPU use with no requests; then an open-loop load of {@code -Drate}
 * requests/s alternating between the two workers, a warm-up and the measured run, with the CPU time each process
 * spent per request. Latency runs from each request's scheduled send time to the end of its answer; a 200 whose
 * totals are wrong counts as an error.
 * Then, to show where the time goes, the same load on Connect's own {@code GET /} (the REST stack alone). (Each
 * worker's own share of the figures is served only on the monitor's signed peer listener since the peer hardening,
 * so it is no longer loaded from here.)
 *
 * <p>From the repository root:
 * <pre>
 * mvn -B -q -pl connect-plugin/archive,benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.quarantine.benchmarks.DeadLetterRestLatency
 * </pre>
 * {@code -Drate=200 -Dseconds=60 -Dwarmup.seconds=10 -Dthreads=4 -Dbreakdown=true} change the run;
 * {@code -Dplugin.path}, {@code -Dworker.classpath} the inputs.
 */
public final class DeadLetterRestLatency {

    private static final int RATE = Integer.getInteger("rate", 200);
    private static final Duration MEASURED = Duration.ofSeconds(Integer.getInteger("seconds", 60));
    private static final Duration WARM_UP = Duration.ofSeconds(Integer.getInteger("warmup.seconds", 10));
    private static final int THREADS = Integer.getInteger("threads", 4);
    private static final boolean BREAKDOWN = Boolean.parseBoolean(System.getProperty("breakdown", "true"));
    private static final Duration BREAKDOWN_RUN = Duration.ofSeconds(20);
    private static final Duration SETTLED = Duration.ofSeconds(180);
    private static final Duration IDLE = Duration.ofSeconds(10);
    private static final double TARGET_P99_MS = 50;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<LocalConnect> workers;
    private final Map<String, Long> expected;
    private final DeadLetterRestLoad load;

    private DeadLetterRestLatency(List<LocalConnect> workers, Map<String, Long> expected, DeadLetterRestLoad load) {
        this.workers = workers;
        this.expected = expected;
        this.load = load;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
        Path plugins = RunInputs.pluginPath();
        List<Path> classpath = RunInputs.workerClasspath();
        String peerSecret = peerSecret();
        try (LocalKafka kafka = LocalKafka.create().start();
             LocalConnect first = worker(kafka, plugins, classpath, peerSecret);
             LocalConnect second = worker(kafka, plugins, classpath, peerSecret);
             DeadLetterRestLoad load = new DeadLetterRestLoad(THREADS)) {
            Map<String, Long> expected = DeadLetterRestData.write(kafka, 1500, 1000, 500);
            first.start();
            second.start();
            new DeadLetterRestLatency(List.of(first, second),
                    expected, load).run();
        }
    }

    private void run() {
        long started = System.nanoTime();
        for (LocalConnect worker : workers) {
            awaitTotals(worker);
        }
        System.out.printf("GET /dead-letters, %d requests/s open loop alternating between 2 workers on 127.0.0.1,"
                        + " %d s warm-up, %d s measured; %d cores, JDK %s, worker %s%n", RATE, WARM_UP.toSeconds(),
                MEASURED.toSeconds(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                workers.get(0).get("/").path("version").asText());
        System.out.printf("dead letters: %s, %d partitions each; both workers answered them %.1f s after start%n",
                expected, DeadLetterRestData.PARTITIONS, (System.nanoTime() - started) / 1e9);
        List<Target> summary = targets("/dead-letters", this::rightTotals, List.of("", ""));
        load.sequential(summary, 20);
        load.sequential(summary, 100).print("one request at a time (service time, latency from each send):");
        load.run(summary, RATE, WARM_UP);
        idleCpu();
        System.out.printf("load average before the measured run: %s%n", RunInputs.loadAverage());
        DeadLetterRestCpu cpu = new DeadLetterRestCpu(workers.stream().map(LocalConnect::pid).toList());
        DeadLetterRestSamples measured = load.run(summary, RATE, MEASURED);
        System.out.printf("load average after it: %s%n", RunInputs.loadAverage());
        measured.print("GET /dead-letters (latency from the scheduled send time; errors included):");
        System.out.println("  " + cpu.perRequest(measured.requests()));
        if (BREAKDOWN) {
            breakdown();
        }
        double p99 = measured.percentileMillis(99);
        System.out.printf("%ntarget p99 < %.0f ms at %d requests/s: p99 %.1f ms, %d errors: %s%n", TARGET_P99_MS, RATE,
                p99, measured.errors(), p99 < TARGET_P99_MS && measured.errors() == 0 ? "PASS" : "MISS");
    }

    /** What the processes spend with no requests (the aggregation's exactly_once_v2 commits, Connect's herder). */
    private void idleCpu() {
        DeadLetterRestCpu cpu = new DeadLetterRestCpu(workers.stream().map(LocalConnect::pid).toList());
        try {
            Thread.sleep(IDLE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        System.out.println(cpu.perSecond(IDLE.toSeconds()));
    }

    /** The same load on Connect's own root resource: what the REST stack alone costs. */
    private void breakdown() {
        List<Target> root = targets("/", body -> true, List.of("", ""));
        load.sequential(root, 100).print("breakdown, one request at a time:");
        load.run(root, RATE, Duration.ofSeconds(5));
        System.out.printf("load average: %s%n", RunInputs.loadAverage());
        DeadLetterRestCpu cpu = new DeadLetterRestCpu(workers.stream().map(LocalConnect::pid).toList());
        DeadLetterRestSamples samples = load.run(root, RATE, BREAKDOWN_RUN);
        samples.print("breakdown, " + BREAKDOWN_RUN.toSeconds() + " s:");
        System.out.println("  " + cpu.perRequest(samples.requests()));
    }

    /** One target per worker: {@code path} + that worker's suffix. */
    private List<Target> targets(String path, Predicate<String> rightBody, List<String> suffixes) {
        List<Target> targets = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            String pathAndQuery = path + suffixes.get(i);
            targets.add(new Target("worker " + (i + 1) + " GET " + pathAndQuery,
                    URI.create(workers.get(i).restUrl() + pathAndQuery), rightBody));
        }
        return targets;
    }

    private boolean rightTotals(String body) {
        try {
            return totals(JSON.readTree(body)).equals(expected);
        } catch (IOException e) {
            return false;
        }
    }

    private void awaitTotals(LocalConnect worker) {
        Object[] last = new Object[1];
        Await.until(() -> "totals " + expected + " from " + worker.restUrl() + "/dead-letters; last: " + last[0]
                + "; worker log: " + worker.logFile(), SETTLED, () -> {
            try {
                last[0] = totals(worker.get("/dead-letters"));
                return last[0].equals(expected);
            } catch (RuntimeException notYet) {
                last[0] = notYet.getMessage();
                return false;
            }
        });
    }

    private static Map<String, Long> totals(JsonNode summary) {
        Map<String, Long> totals = new HashMap<>();
        summary.path("topics").forEach(t -> totals.put(t.path("topic").asText(), t.path("total").asLong()));
        return totals;
    }

    /**
     * The workers' shared peer secret: 32 random bytes, base64, as the monitor asks for (it refuses a weak one at the
     * worker's start; a fixed readable string no longer passes).
     */
    private static String peerSecret() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return Base64.getEncoder().encodeToString(secret);
    }

    private static LocalConnect worker(LocalKafka kafka, Path plugins, List<Path> classpath, String peerSecret) {
        return LocalConnect.create(kafka, plugins, classpath, Map.of(
                "group.id", "bench-rest-connect",
                "config.storage.topic", "bench-rest-configs",
                "offset.storage.topic", "bench-rest-offsets",
                "status.storage.topic", "bench-rest-status",
                "rest.extension.classes", "dev.quarantine.connect.rest.DeadLetterRestExtension",
                "quarantine.monitor.peer.secret", peerSecret,
                "quarantine.monitor.topics", String.join(",", DeadLetterRestData.CONNECT_DLQ,
                        DeadLetterRestData.STREAMS_DLQ, DeadLetterRestData.PLAIN_DLQ)));
    }

}
