package dev.quarantine.connect.sink;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs a piece of work for each of many items, at most {@code parallelism} at a time (the calling thread and
 * threads of an executor), and waits for all of it. Opening a partition (its producer's initTransactions) and
 * confirming a partition's progress are round trips to the target cluster,
 * not CPU: a task with hundreds of partitions opens them a few at a time instead of one after another. With one
 * item, or a parallelism of 1, everything runs on the calling thread.
 */
final class BoundedParallel {

    /** What the items came to, in the order of the items: their results, and the failures of the others. */
    record Outcome<T, R>(Map<T, R> done, Map<T, RuntimeException> failed) {

        /** The first failure (in the items' order) that {@code preferred} accepts, else the first failure. */
        Optional<RuntimeException> failure(Predicate<RuntimeException> preferred) {
            return failed.values().stream().filter(preferred).findFirst()
                    .or(() -> failed.values().stream().findFirst());
        }
    }

    private BoundedParallel() {
    }

    static <T, R> Outcome<T, R> run(Collection<T> items, int parallelism, Executor executor, Function<T, R> work) {
        Map<T, R> done = new ConcurrentHashMap<>();
        Map<T, RuntimeException> failed = new ConcurrentHashMap<>();
        Queue<T> queue = new ConcurrentLinkedQueue<>(items);
        Runnable drain = () -> {
            for (T item = queue.poll(); item != null; item = queue.poll()) {
                try {
                    done.put(item, work.apply(item));
                } catch (RuntimeException e) {
                    failed.put(item, e);
                }
            }
        };
        List<CompletableFuture<Void>> helpers = new ArrayList<>();
        for (int i = 1; i < Math.min(parallelism, items.size()); i++) {
            helpers.add(CompletableFuture.runAsync(drain, executor));
        }
        drain.run();
        try {
            CompletableFuture.allOf(helpers.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
        return new Outcome<>(inOrder(items, done), inOrder(items, failed));
    }

    private static <T, V> Map<T, V> inOrder(Collection<T> items, Map<T, V> values) {
        Map<T, V> ordered = new LinkedHashMap<>();
        items.forEach(item -> {
            V value = values.get(item);
            if (value != null) {
                ordered.put(item, value);
            }
        });
        return ordered;
    }
}
