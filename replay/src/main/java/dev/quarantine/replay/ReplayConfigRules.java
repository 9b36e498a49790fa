package dev.quarantine.replay;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Rules between replay settings, written once, each by the setting to report it on: {@link ReplayConfig}'s
 * constructor throws the first of {@link #acrossFields} as a ConfigException, the replay connector's
 * {@code validate()} reports them all on their keys, and the entry points that start a writing replay ask
 * {@link #forWriting} too.
 */
final class ReplayConfigRules {

    private ReplayConfigRules() {
    }

    /**
     * The broken rules that involve more than one setting (or the dead-letter topic's name, as
     * {@code replay.filter.offsets} does); empty when there are none.
     */
    static Map<String, String> acrossFields(ReplayConfig config) {
        Map<String, String> problems = new LinkedHashMap<>();
        for (String text : config.filterOffsets()) {
            try {
                Positions.position(text, config.dlqTopic());
            } catch (IllegalArgumentException e) {
                problems.put(ReplayConfig.FILTER_OFFSETS_CONFIG, e.getMessage());
            }
        }
        if (config.parkingTopic().equals(config.dlqTopic())) {
            problems.put(ReplayConfig.PARKING_TOPIC_CONFIG, "must differ from " + ReplayConfig.DLQ_TOPIC_CONFIG);
        }
        destinationProblem(config).ifPresent(problem -> problems.put(ReplayConfig.DESTINATION_CONFIG, problem));
        Optional<Instant> from = config.time(ReplayConfig.FILTER_TIME_FROM_CONFIG);
        Optional<Instant> to = config.time(ReplayConfig.FILTER_TIME_TO_CONFIG);
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            problems.put(ReplayConfig.FILTER_TIME_TO_CONFIG, "must be after " + ReplayConfig.FILTER_TIME_FROM_CONFIG
                    + " (" + from.get() + ")");
        }
        return problems;
    }

    /**
     * The rules that apply only to a replay that writes (not a dry run): a destination chosen by headers
     * ('original', 'source') needs {@code replay.destinations.allowed}. Empty when there are none.
     */
    static Map<String, String> forWriting(ReplayConfig config) {
        Map<String, String> problems = new LinkedHashMap<>();
        if (config.destination().kind() != Destination.Kind.TOPIC && config.destinationsAllowed().isEmpty()) {
            problems.put(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "is empty, so no topic named by a dead letter's"
                    + " headers may be written, and " + ReplayConfig.DESTINATION_CONFIG + " is '"
                    + config.destination() + "': set it to a regular expression of the topics this replay may write"
                    + " (run a dry run to see where the dead letters would go), or name one topic in "
                    + ReplayConfig.DESTINATION_CONFIG);
        }
        return problems;
    }

    /** A named destination topic must not be the dead-letter topic, nor one the destination rule refuses. */
    private static Optional<String> destinationProblem(ReplayConfig config) {
        Optional<String> topic = config.destination().topic();
        if (topic.filter(config.dlqTopic()::equals).isPresent()) {
            return Optional.of("must not be the dead-letter topic itself (" + ReplayConfig.DLQ_TOPIC_CONFIG + ")");
        }
        return topic.map(named -> DestinationRule.of(config).decide(named))
                .filter(verdict -> verdict != DestinationRule.Verdict.ALLOWED)
                .map(verdict -> "may not be written: the topic " + verdict.reason());
    }
}
