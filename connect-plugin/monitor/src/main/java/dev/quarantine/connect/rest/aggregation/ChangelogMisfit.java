package dev.quarantine.connect.rest.aggregation;

import java.util.Optional;

import dev.quarantine.connect.rest.http.Causes;

/**
 * A stream thread's failure that every thread of the run would meet again: an internal topic of the run's
 * application.id exists with another partition count than the topics read now give its tasks (Kafka Streams:
 * "Existing internal topic ... has invalid partitions"). The width in the application.id avoids it
 * ({@code SubscriptionWidth}); it is still met when Kafka Streams sees a new topic before the monitor's discovery does
 * (the next round moves the run) or when an application.id is used again whose topics were created at another width
 * (a topic appeared between the discovery's look and the run's first assignment): then the topics must go.
 */
final class ChangelogMisfit {

    private static final String MARK = "has invalid partitions";

    private ChangelogMisfit() {
    }

    /** The failure to stop the run with, naming what to delete; empty when {@code error} is not such a misfit. */
    static Optional<IllegalStateException> of(String applicationId, Throwable error) {
        for (Throwable cause : Causes.of(error)) {
            if (cause.getMessage() != null && cause.getMessage().contains(MARK)) {
                return Optional.of(new IllegalStateException("The dead-letter aggregation's internal topics (named "
                        + applicationId + "-...) were created for dead-letter topics of another partition count than"
                        + " it reads now. When the next discovery round finds the topics' width changed it starts a"
                        + " new aggregation; if this stays, delete the topics named " + applicationId + "-... (for"
                        + " example with kafka-topics.sh --delete) while no worker runs the monitor of that"
                        + " application.id, and the monitor creates them again", error));
            }
        }
        return Optional.empty();
    }
}
