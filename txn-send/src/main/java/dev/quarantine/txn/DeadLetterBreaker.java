package dev.quarantine.txn;

import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The breaker of {@code dlq.max.ratio} (sink) and {@code quarantine.dlq.max.ratio} (Streams): trips when more than
 * {@code maxRatio} of the last {@code window} records would be dead-lettered. Many dead letters in a row mean
 * something is wrong beyond single poison records (a target or output topic deleted or misconfigured), and parking
 * the whole stream in the dead-letter topic would hide it. Records not yet seen count as written, so a few poison
 * records at start-up do not trip it; a {@code maxRatio} of 1.0 never trips. Thread-safe.
 */
public final class DeadLetterBreaker {

    /** Why the breaker tripped: the dead letters in the window, by error class, and the limit they passed. */
    public record Trip(int deadLetters, int window, double maxRatio, Map<String, Integer> byErrorClass) {

        /** The error class most of the dead letters failed with, and how many. */
        public Map.Entry<String, Integer> mostCommon() {
            return byErrorClass.entrySet().stream().max(Comparator.comparingInt(Map.Entry::getValue)).orElseThrow();
        }

        /** For a failure message: "6 of the last 10 records would be dead-lettered (...: 5, ...: 1)". */
        public String describe(String records) {
            StringBuilder text = new StringBuilder();
            byErrorClass.forEach((error, count) -> text.append(text.isEmpty() ? "" : ", ").append(error).append(": ")
                    .append(count));
            return deadLetters + " of the last " + window + " " + records + " would be dead-lettered (" + text + ")";
        }
    }

    private final int window;
    private final double maxRatio;
    /** Per slot of the window: null for a written record, else the error class of a dead-lettered one. */
    private final String[] outcomes;
    private final Map<String, Integer> deadLettersByError = new TreeMap<>();
    private int next;
    private int deadLetters;

    /**
     * @param window   how many of the latest records are judged, at least 1
     * @param maxRatio the share of them that may be dead-lettered, within [0, 1]; 1.0 turns the breaker off
     */
    public DeadLetterBreaker(int window, double maxRatio) {
        if (window < 1 || maxRatio < 0 || maxRatio > 1) {
            throw new IllegalArgumentException("window " + window + " must be at least 1 and maxRatio " + maxRatio
                    + " within [0, 1]");
        }
        this.window = window;
        this.maxRatio = maxRatio;
        this.outcomes = new String[window];
    }

    /** A record was written. */
    public synchronized void written() {
        add(null);
    }

    /**
     * A record is about to be dead-lettered with {@code errorClass}: empty when that is fine (it is counted), or the
     * trip when it would make too many (it is then not counted; the caller fails instead).
     */
    public synchronized Optional<Trip> deadLettered(String errorClass) {
        String leaving = outcomes[next];
        int after = deadLetters + 1 - (leaving == null ? 0 : 1);
        if (maxRatio < 1.0 && after > maxRatio * window) {
            Map<String, Integer> counts = new TreeMap<>(deadLettersByError);
            counts.merge(errorClass, 1, Integer::sum);
            if (leaving != null) {
                counts.computeIfPresent(leaving, (error, count) -> count == 1 ? null : count - 1);
            }
            return Optional.of(new Trip(after, window, maxRatio, Collections.unmodifiableMap(counts)));
        }
        add(errorClass);
        return Optional.empty();
    }

    private void add(String outcome) {
        String old = outcomes[next];
        if (old != null) {
            deadLetters--;
            deadLettersByError.computeIfPresent(old, (error, count) -> count == 1 ? null : count - 1);
        }
        outcomes[next] = outcome;
        if (outcome != null) {
            deadLetters++;
            deadLettersByError.merge(outcome, 1, Integer::sum);
        }
        next = (next + 1) % window;
    }
}
