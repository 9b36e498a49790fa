package dev.quarantine.replay;

import java.util.Optional;

/**
 * A dead-letter header that names part of a destination (a topic, a partition, an offset), parsed defensively: absent,
 * present with a legal value, or present but illegal (negative, out of range, not a number, too long, not a topic
 * name). A dead letter's headers are written by whoever may write the dead-letter topic: hostile input.
 *
 * @param value   the legal value, when present and legal
 * @param problem what is wrong with a present but illegal value, never the value itself
 */
record HeaderValue<T>(Optional<T> value, Optional<String> problem) {

    static <T> HeaderValue<T> absent() {
        return new HeaderValue<>(Optional.empty(), Optional.empty());
    }

    static <T> HeaderValue<T> of(T value) {
        return new HeaderValue<>(Optional.of(value), Optional.empty());
    }

    static <T> HeaderValue<T> illegal(String problem) {
        return new HeaderValue<>(Optional.empty(), Optional.of(problem));
    }

    boolean illegal() {
        return problem.isPresent();
    }
}
