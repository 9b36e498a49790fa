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
    /** Its headers do not say where it belongs (no input or target topic for this destination). */
    SKIPPED_UNROUTABLE
}
