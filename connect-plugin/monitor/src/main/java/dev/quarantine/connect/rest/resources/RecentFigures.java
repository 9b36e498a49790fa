package dev.quarantine.connect.rest.resources;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;

/**
 * The last cluster-wide figures per query, served for {@code maxAge}; concurrent requests for the same query share one
 * read. Only answers are kept (a read that fails is not), so a cached answer is never wrongly partial (it may say it
 * is incomplete: no peer secret).
 * Callers are already authenticated by the worker, so one caller's answer serves another.
 */
final class RecentFigures {

    private record Snapshot(PartitionFigures figures, long atMillis) {
    }

    /**
     * At most this many queries are kept: a topic pattern matches names without end, and a caller could otherwise
     * fill the heap with one cached answer per name it makes up.
     */
    static final int MAX_ENTRIES = 1_000;

    private final long maxAgeMillis;
    private final Clock clock;
    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<PartitionFigures>> reads = new ConcurrentHashMap<>();

    RecentFigures(Duration maxAge, Clock clock) {
        this.maxAgeMillis = maxAge.toMillis();
        this.clock = clock;
    }

    /** The figures of {@code key}: recent ones, the read already running, or a new read. */
    PartitionFigures get(String key, Supplier<PartitionFigures> read) {
        Snapshot snapshot = snapshots.get(key);
        if (snapshot != null && clock.millis() - snapshot.atMillis() < maxAgeMillis) {
            return snapshot.figures();
        }
        CompletableFuture<PartitionFigures> mine = new CompletableFuture<>();
        CompletableFuture<PartitionFigures> running = reads.putIfAbsent(key, mine);
        if (running != null) {
            return join(running);
        }
        try {
            PartitionFigures figures = read.get();
            keep(key, figures);
            mine.complete(figures);
            return figures;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            reads.remove(key, mine);
        }
    }

    private void keep(String key, PartitionFigures figures) {
        long now = clock.millis();
        if (snapshots.size() >= MAX_ENTRIES) {
            snapshots.values().removeIf(s -> now - s.atMillis() >= maxAgeMillis);
        }
        if (snapshots.size() < MAX_ENTRIES || snapshots.containsKey(key)) {
            snapshots.put(key, new Snapshot(figures, now));
        }
    }

    private static PartitionFigures join(CompletableFuture<PartitionFigures> read) {
        try {
            return read.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }
}
