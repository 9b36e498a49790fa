package dev.quarantine.replay;

/** What the replay did with one dead letter of its range. */
public enum Outcome {
    /** Written to its destination. */
    REPLAYED,
    /** Failed again at its destination and written back to the dead-letter topic, its replay count one higher. */
    DEAD_LETTERED_AGAIN,
    /** Failed again after {@code replay.max.attempts} replays and written to the parking topic. */
    PARKED,
    /** Not selected by the filters. */
    SKIPPED_BY_FILTER,
    /** Its payload was cut to fit the dead-letter limit, so it is not replayed as if whole. */
    SKIPPED_TRUNCATED,
    /**
     * Its headers do not say where it belongs: no input or target topic for this destination, or a header naming its
     * topic or partition is illegal (not a number, negative, too large, not a topic name, a partition the topic does
     * not have), or it has no valid timestamp.
     */
    SKIPPED_UNROUTABLE,
    /** Its destination is one the replay may not write ({@link DestinationRule}): nothing is written there. */
    REFUSED_DESTINATION,
    /** A finished replay of the same dead-letter topic already wrote it somewhere ({@code replay.again} replays it). */
    SKIPPED_ALREADY_REPLAYED;

    /** Whether the replay wrote the dead letter somewhere: its destination, the dead-letter or the parking topic. */
    public boolean written() {
        return this == REPLAYED || this == DEAD_LETTERED_AGAIN || this == PARKED;
    }
}
