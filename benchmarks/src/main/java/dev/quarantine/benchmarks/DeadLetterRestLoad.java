package dev.quarantine.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * An open-loop load of GET requests at a fixed rate: request i is due at start + i / rate whatever happened to the
 * requests before it, sent asynchronously, and its latency runs from that due time (not from when it was actually
 * sent) to the end of its answer, so a stall of the client or the server is charged to every request it delays
 * (no coordinated omission). The targets take turns. Every request is bounded by {@link #TIMEOUT}; a run is bounded
 * by its count.
 *
 * <p>A deliberate parallel of the sandbox's {@code ConnectRest}, the one client tests and the rest of the benchmarks
 * use: a load generator needs its own asynchronous client, executor and HTTP/1.1 keep-alive, and must not retry.
 */
final class DeadLetterRestLoad implements AutoCloseable {

    /** A URL to GET, and what a 200 answer's body must satisfy to count as right. */
    record Target(String name, URI uri, Predicate<String> rightBody) {
    }

    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ExecutorService executor;
    private final HttpClient http;

    DeadLetterRestLoad(int threads) {
        executor = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "rest-load");
            thread.setDaemon(true);
            return thread;
        });
        // HTTP/1.1 with keep-alive, as curl and most monitoring agents ask; HTTP_2 would add an h2c upgrade attempt
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
                .connectTimeout(TIMEOUT).build();
    }

    /** Sends {@code rate} requests per second for {@code duration}; returns when every request has an outcome. */
    DeadLetterRestSamples run(List<Target> targets, int rate, Duration duration) {
        int requests = Math.toIntExact(rate * duration.toSeconds());
        DeadLetterRestSamples samples = new DeadLetterRestSamples(targets.stream().map(Target::name).toList(),
                requests);
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        List<CompletableFuture<Void>> pending = new ArrayList<>(requests);
        for (int i = 0; i < requests; i++) {
            long due = start + i * interval;
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            pending.add(send(samples, i, targets.get(samples.targetOf(i)), due));
        }
        awaitAll(pending);
        return samples;
    }

    /**
     * Sends {@code perTarget} requests to each target one at a time (closed loop, the targets taking turns): the
     * service time of an otherwise idle server, latency from each send.
     */
    DeadLetterRestSamples sequential(List<Target> targets, int perTarget) {
        int requests = perTarget * targets.size();
        DeadLetterRestSamples samples = new DeadLetterRestSamples(targets.stream().map(Target::name).toList(),
                requests);
        for (int i = 0; i < requests; i++) {
            Target target = targets.get(samples.targetOf(i));
            long start = System.nanoTime();
            HttpResponse<String> response = null;
            Throwable error = null;
            try {
                response = http.send(get(target), HttpResponse.BodyHandlers.ofString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (java.io.IOException e) {
                error = e;
            }
            samples.record(i, System.nanoTime() - start, outcome(target, response, error));
        }
        return samples;
    }

    /** A GET without an Accept header (any type): the JSON endpoints answer JSON. */
    private static HttpRequest get(Target target) {
        return HttpRequest.newBuilder(target.uri()).timeout(TIMEOUT).GET().build();
    }

    private CompletableFuture<Void> send(DeadLetterRestSamples samples, int request, Target target, long due) {
        return http.sendAsync(get(target), HttpResponse.BodyHandlers.ofString()).handle((response, error) -> {
            long latency = System.nanoTime() - due;
            samples.record(request, latency, outcome(target, response, error));
            return null;
        });
    }

    private static String outcome(Target target, HttpResponse<String> response, Throwable error) {
        if (error != null) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                    : error;
            return cause instanceof HttpTimeoutException ? "timeout" : cause.getClass().getSimpleName();
        }
        if (response.statusCode() != 200) {
            return String.valueOf(response.statusCode());
        }
        return target.rightBody().test(response.body()) ? "200" : "200 wrong body";
    }

    private static void awaitAll(List<CompletableFuture<Void>> pending) {
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                    .get(TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the last answers", e);
        } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
            throw new IllegalStateException("requests still open " + (TIMEOUT.toSeconds() + 30)
                    + " s after the last was sent", e);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
