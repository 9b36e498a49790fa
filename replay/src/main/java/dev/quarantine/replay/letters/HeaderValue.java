package dev.quarantine.replay.letters;

import java.util.Optional;

/**
 * A dead-letter header that names part of a destination (a topic, a partition, an offset), parsed defensively: absent,
 * present with a legal value, or present but illegal (negative, out of range, not a number, too long, not a topic
 * name). A dead letter's headers are written by whoever may write the dead-letter topic: hostile input.
 *
 * @param value   the legal value, when present and legal
 * @param problem what is wrong with a present but illegal value, never the value itself
 * @param shown   the header as bounded text for display ({@link HeaderText}): the value, or the cut or unparseable
 *                text of an illegal one; empty when absent
 */
public record HeaderValue<T>(Optional<T> value, Optional<String> problem, Optional<String> shown) {

    public static <T> HeaderValue<T> absent() {
        return new HeaderValue<>(Optional.empty(), Optional.empty(), Optional.empty());
    }

    public static <T> HeaderValue<T> of(T value) {
        return new HeaderValue<>(Optional.of(value), Optional.empty(), Optional.of(String.valueOf(value)));
    }

    static <T> HeaderValue<T> illegal(String problem, String shown) {
        return new HeaderValue<>(Optional.empty(), Optional.of(problem), Optional.ofNullable(shown));
    }

    public boolean illegal() {
        return problem.isPresent();
    }
}
