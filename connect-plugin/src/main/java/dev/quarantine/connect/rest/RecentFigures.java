package dev.quarantine.connect.rest;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The last cluster-wide figures per query, served for {@code maxAge}; concurrent requests for the same query share one
 * read. Only answers are kept (a read that fails is not), so a cached answer is never wrongly partial (it may say it
 * is incomplete: no peer secret).
 * Callers are already authenticated by the worker, so one caller's answer serves another.
 */
final class RecentFigures {

    private record Snapshot(Partial figures, long atMillis) {
    }

    private final long maxAgeMillis;
    private final Clock clock;
    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Partial>> reads = new ConcurrentHashMap<>();

    RecentFigures(Duration maxAge, Clock clock) {
        this.maxAgeMillis = maxAge.toMillis();
        this.clock = clock;
    }

    /** The figures of {@code key}: recent ones, the read already running, or a new read. */
    Partial get(String key, Supplier<Partial> read) {
        Snapshot snapshot = snapshots.get(key);
        if (snapshot != null && clock.millis() - snapshot.atMillis() < maxAgeMillis) {
            return snapshot.figures();
        }
        CompletableFuture<Partial> mine = new CompletableFuture<>();
        CompletableFuture<Partial> running = reads.putIfAbsent(key, mine);
        if (running != null) {
            return join(running);
        }
        try {
            Partial figures = read.get();
            snapshots.put(key, new Snapshot(figures, clock.millis()));
            mine.complete(figures);
            return figures;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            reads.remove(key, mine);
        }
    }

    private static Partial join(CompletableFuture<Partial> read) {
        try {
            return read.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }
}
