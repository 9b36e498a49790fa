package dev.quarantine.replay;

/** The state of a replay, as its committed progress records it. */
public enum ReplayState {
    /** Started, with dead letters of its range still to read. */
    RUNNING,
    /** Every dead letter of its range was read and counted; nothing more is written. */
    DONE,
    /** Stopped by {@link ReplayEngine#cancel()} before the end of its range; nothing more is written. */
    CANCELLED
}
