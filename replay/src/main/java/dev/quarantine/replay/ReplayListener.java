package dev.quarantine.replay;

/**
 * Hears what a {@link ReplayEngine} did with each dead letter, after the transaction holding it committed (or, in a
 * dry run, as soon as it is decided). Called on the thread that calls {@link ReplayEngine#step()}.
 */
@FunctionalInterface
public interface ReplayListener {

    /** A listener that ignores everything. */
    ReplayListener NONE = report -> { };

    void onRecord(RecordReport report);
}
