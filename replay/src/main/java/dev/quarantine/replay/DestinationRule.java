package dev.quarantine.replay;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which topics a replay may write its dead letters to: the one rule the command line, the replay connector and the
 * monitor's replay endpoints obey, applied to every dead letter's destination before it is written. The first row
 * that matches decides (the first three rows are the reserved names, {@link ReservedTopics}, which the monitor also
 * refuses to discover):
 *
 * <table>
 * <caption>Destination rule</caption>
 * <tr><th>destination topic</th><th>verdict</th></tr>
 * <tr><td>internal by Kafka's naming convention: its name starts with {@code __} ({@code __consumer_offsets},
 *     {@code __transaction_state}, ...) or ends with {@code .internal} (MirrorMaker 2's internal topics, the
 *     exactly-once sink's {@code <connector>.progress.internal})</td><td>refused</td></tr>
 * <tr><td>the dead-letter topic being replayed, or a replay progress topic ({@code quarantine-replay-progress*})
 *     or parking topic ({@code *.parking}) of this replay or any other: {@link ReplayConfig} accepts no progress or
 *     parking topic named otherwise, so this holds for every replay by construction</td><td>refused</td></tr>
 * <tr><td>Kafka Connect's default config, offset and status topics ({@code connect-configs},
 *     {@code connect-offsets}, {@code connect-status}), whatever the settings say</td><td>refused</td></tr>
 * <tr><td>matched in full by {@code replay.destinations.denied}, which adds to the row above (empty by default; the
 *     monitor sets its worker's real topics and its own internal topics)</td><td>refused</td></tr>
 * <tr><td>the topic named by {@code replay.destination} (the operator chose it, not a header)</td>
 *     <td>allowed</td></tr>
 * <tr><td>matched in full by {@code replay.destinations.allowed}</td><td>allowed</td></tr>
 * <tr><td>any other (a header chose it; the allow-list is empty by default)</td><td>refused</td></tr>
 * </table>
 *
 * <p>Why the default refuses what a header chose: a dead letter's headers are written by whoever may write the
 * dead-letter topic, while the replay writes as the operator (or the Connect worker). Without an allow-list a header
 * could send a forged record to any topic the replay's principal may write.
 */
final class DestinationRule {

    /** Why a topic is refused; {@link #ALLOWED} when it is not. */
    enum Verdict {
        ALLOWED(null),
        INTERNAL("is a Kafka-internal topic"),
        REPLAYS_OWN("is the dead-letter topic replayed, or a replay's progress or parking topic"),
        CONNECT_DEFAULT("is one of Kafka Connect's default config, offset and status topics"),
        DENIED("is matched by " + ReplayConfig.DESTINATIONS_DENIED_CONFIG),
        NOT_ALLOWED("is not matched by " + ReplayConfig.DESTINATIONS_ALLOWED_CONFIG);

        private final String reason;

        Verdict(String reason) {
            this.reason = reason;
        }

        /** Why the topic is refused, without naming it: for example "is a Kafka-internal topic". */
        String reason() {
            return reason;
        }
    }

    private final String dlqTopic;
    private final Optional<String> chosenTopic;
    private final Optional<Pattern> allowed;
    private final Pattern denied;

    /**
     * @param chosenTopic the topic of {@code replay.destination}, when it names one
     * @param allowed     {@code replay.destinations.allowed}; empty when it is empty (nothing a header chose)
     * @param denied      {@code replay.destinations.denied}: topics refused besides the built-in rows
     */
    DestinationRule(String dlqTopic, Optional<String> chosenTopic, Optional<Pattern> allowed, Pattern denied) {
        this.dlqTopic = dlqTopic;
        this.chosenTopic = chosenTopic;
        this.allowed = allowed;
        this.denied = denied;
    }

    static DestinationRule of(ReplayConfig config) {
        return new DestinationRule(config.dlqTopic(), config.destination().topic(), config.destinationsAllowed(),
                config.destinationsDenied());
    }

    Verdict decide(String topic) {
        Optional<ReservedTopics.Kind> reserved = ReservedTopics.of(topic);
        if (reserved.isPresent()) {
            return switch (reserved.get()) {
                case INTERNAL -> Verdict.INTERNAL;
                case REPLAYS_OWN -> Verdict.REPLAYS_OWN;
                case CONNECT_DEFAULT -> Verdict.CONNECT_DEFAULT;
            };
        }
        if (topic.equals(dlqTopic)) {
            return Verdict.REPLAYS_OWN;
        }
        if (denied.matcher(topic).matches()) {
            return Verdict.DENIED;
        }
        if (chosenTopic.filter(topic::equals).isPresent()) {
            return Verdict.ALLOWED;
        }
        return allowed.filter(pattern -> pattern.matcher(topic).matches()).isPresent() ? Verdict.ALLOWED
                : Verdict.NOT_ALLOWED;
    }
}
