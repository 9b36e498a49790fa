package dev.quarantine.streams;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Trips when more than {@code maxRatio} of the last {@code window} outputs were dead-lettered: many dead letters in
 * a row mean something is wrong beyond single poison records (an output topic deleted or misconfigured), and
 * parking the whole stream in the dead-letter topic would hide it. The outputs not yet seen count as written, so a
 * few poison records at start-up do not trip it; a {@code maxRatio} of 1.0 never trips. Thread-safe.
 */
final class DeadLetterBreaker {

    private final int window;
    private final double maxRatio;
    /** Per slot of the window: null for a written output, else the error class of a dead-lettered one. */
    private final String[] outcomes;
    private final Map<String, Integer> deadLettersByError = new TreeMap<>();
    private int next;
    private int deadLetters;

    DeadLetterBreaker(int window, double maxRatio) {
        if (window < 1 || maxRatio < 0 || maxRatio > 1) {
            throw new IllegalArgumentException("window " + window + " must be at least 1 and maxRatio " + maxRatio
                    + " within [0, 1]");
        }
        this.window = window;
        this.maxRatio = maxRatio;
        this.outcomes = new String[window];
    }

    /** An output was written. */
    synchronized void written() {
        add(null);
    }

    /**
     * An output is about to be dead-lettered with {@code errorClass}; when that makes too many, a description of
     * the dead letters in the window for the failure message (the output is then not counted).
     */
    synchronized Optional<String> deadLettered(String errorClass) {
        int after = deadLetters + 1 - (outcomes[next] == null ? 0 : 1);
        if (after > maxRatio * window) {
            return Optional.of(after + " of the last " + window + " outputs would be dead-lettered ("
                    + describe(errorClass) + "), more than " + maxRatio + " of them");
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

    private String describe(String latest) {
        Map<String, Integer> counts = new TreeMap<>(deadLettersByError);
        counts.merge(latest, 1, Integer::sum);
        if (outcomes[next] != null) {
            counts.computeIfPresent(outcomes[next], (error, count) -> count == 1 ? null : count - 1);
        }
        StringBuilder text = new StringBuilder();
        counts.forEach((error, count) -> text.append(text.isEmpty() ? "" : ", ").append(error).append(": ")
                .append(count));
        return text.toString();
    }
}
