package dev.quarantine.replay;

import java.util.Optional;
import java.util.OptionalInt;

import dev.quarantine.replay.letters.DeadLetterFormat;

/**
 * The decision for one dead letter before anything is sent: skip it (and why) or replay it to a target. The first row
 * that applies decides:
 *
 * <table>
 * <caption>Decision per dead letter</caption>
 * <tr><th>check</th><th>outcome</th></tr>
 * <tr><td>the filters do not select it</td><td>SKIPPED_BY_FILTER</td></tr>
 * <tr><td>a finished replay of the same dead-letter topic wrote it (unless {@code replay.again})</td>
 *     <td>SKIPPED_ALREADY_REPLAYED</td></tr>
 * <tr><td>its payload was cut (a Kafka Streams dead letter without payload, origin {@code none}, counts as cut, and so
 *     does a share group's without key and value: the group did not set
 *     {@code errors.deadletterqueue.copy.record.enable}), unless {@code replay.force.truncated}</td>
 *     <td>SKIPPED_TRUNCATED</td></tr>
 * <tr><td>no destination: headers missing or illegal ({@link DestinationResolver}), or no valid timestamp</td>
 *     <td>SKIPPED_UNROUTABLE</td></tr>
 * <tr><td>the destination topic may not be written ({@link DestinationRule})</td><td>REFUSED_DESTINATION</td></tr>
 * <tr><td>the partition a header names is not one of the destination topic's</td><td>SKIPPED_UNROUTABLE</td></tr>
 * <tr><td>otherwise</td><td>REPLAYED (to the target)</td></tr>
 * </table>
 */
final class RecordPlan {

    /** How many partitions a topic has; empty when the topic is unknown (the producer then decides). */
    @FunctionalInterface
    interface PartitionCounts {
        OptionalInt of(String topic);
    }

    private static final String NO_PAYLOAD = "none";

    private final ReplayFilter filter;
    private final WrittenOffsets alreadyReplayed;
    private final DestinationResolver destinations;
    private final DestinationRule rule;
    private final PartitionCounts partitions;
    private final boolean forceTruncated;

    /** The plan of a replay of {@code config}, skipping what {@code alreadyReplayed} holds. */
    static RecordPlan of(ReplayConfig config, WrittenOffsets alreadyReplayed, PartitionCounts partitions) {
        return new RecordPlan(config.filter(), alreadyReplayed, new DestinationResolver(config.destination()),
                DestinationRule.of(config), partitions, config.forceTruncated());
    }

    /** @param alreadyReplayed what finished replays of the dead-letter topic wrote; NONE with replay.again */
    RecordPlan(ReplayFilter filter, WrittenOffsets alreadyReplayed, DestinationResolver destinations,
               DestinationRule rule, PartitionCounts partitions, boolean forceTruncated) {
        this.filter = filter;
        this.alreadyReplayed = alreadyReplayed;
        this.destinations = destinations;
        this.rule = rule;
        this.partitions = partitions;
        this.forceTruncated = forceTruncated;
    }

    /**
     * What to do with a dead letter: {@code outcome} is REPLAYED when {@code target} is present.
     *
     * @param topic  the destination topic, when it is known (REPLAYED, REFUSED_DESTINATION)
     * @param reason why it is unroutable or refused, naming headers and settings, never a header's value
     */
    record Decision(Outcome outcome, Optional<DestinationResolver.Target> target, Optional<String> topic,
                    Optional<String> reason) {
        static Decision skip(Outcome outcome) {
            return new Decision(outcome, Optional.empty(), Optional.empty(), Optional.empty());
        }

        static Decision unroutable(String reason) {
            return new Decision(Outcome.SKIPPED_UNROUTABLE, Optional.empty(), Optional.empty(), Optional.of(reason));
        }
    }

    Decision decide(DeadLetterView letter) {
        if (!filter.matches(letter)) {
            return Decision.skip(Outcome.SKIPPED_BY_FILTER);
        }
        if (alreadyReplayed.contains(letter.record().partition(), letter.record().offset())) {
            return Decision.skip(Outcome.SKIPPED_ALREADY_REPLAYED);
        }
        boolean noPayload = letter.payloadOrigin().map(NO_PAYLOAD::equals).orElse(false)
                || letter.format() == DeadLetterFormat.SHARE_GROUP && letter.record().key() == null
                && letter.record().value() == null;
        if ((letter.truncated() || noPayload) && !forceTruncated) {
            return Decision.skip(Outcome.SKIPPED_TRUNCATED);
        }
        DestinationResolver.Resolution resolution = destinations.resolve(letter);
        if (resolution.target().isEmpty()) {
            return Decision.unroutable(resolution.unroutable());
        }
        if (letter.originalTimestamp() < 0) {
            return Decision.unroutable("the dead letter has no valid timestamp");
        }
        return route(resolution.target().get());
    }

    private Decision route(DestinationResolver.Target target) {
        DestinationRule.Verdict verdict = rule.decide(target.topic());
        if (verdict != DestinationRule.Verdict.ALLOWED) {
            return new Decision(Outcome.REFUSED_DESTINATION, Optional.empty(), Optional.of(target.topic()),
                    Optional.of(verdict.reason()));
        }
        if (target.partition() != null) {
            OptionalInt count = partitions.of(target.topic());
            if (count.isPresent() && target.partition() >= count.getAsInt()) {
                return Decision.unroutable("its partition header names partition " + target.partition() + ", but "
                        + target.topic() + " has " + count.getAsInt() + " partitions");
            }
        }
        return new Decision(Outcome.REPLAYED, Optional.of(target), Optional.of(target.topic()), Optional.empty());
    }
}
