package dev.quarantine.benchmarks;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counts records that were not committed because they failed, by exception class. Thread-safe. */
final class Failures {

    private final Map<String, LongAdder> byClass = new ConcurrentHashMap<>();

    void add(Exception error) {
        byClass.computeIfAbsent(error.getClass().getSimpleName(), name -> new LongAdder()).increment();
    }

    long total() {
        return byClass.values().stream().mapToLong(LongAdder::sum).sum();
    }

    @Override
    public String toString() {
        Map<String, Long> counts = new TreeMap<>();
        byClass.forEach((name, count) -> counts.put(name, count.sum()));
        return counts.toString();
    }
}
