package dev.quarantine.replay;

import java.util.Optional;

/**
 * The decision for one dead letter before anything is sent: skip it (and why) or replay it to a target. Checked in
 * this order: the filters, then truncation (a cut payload is replayed only with {@code replay.force.truncated}; a
 * Kafka Streams dead letter without payload, origin {@code none}, counts as cut), then the destination.
 */
final class RecordPlan {

    private static final String NO_PAYLOAD = "none";

    private final ReplayFilter filter;
    private final DestinationResolver destinations;
    private final boolean forceTruncated;

    RecordPlan(ReplayFilter filter, DestinationResolver destinations, boolean forceTruncated) {
        this.filter = filter;
        this.destinations = destinations;
        this.forceTruncated = forceTruncated;
    }

    /** What to do with a dead letter: {@code outcome} is REPLAYED when {@code target} is present. */
    record Decision(Outcome outcome, Optional<DestinationResolver.Target> target) {
        static Decision skip(Outcome outcome) {
            return new Decision(outcome, Optional.empty());
        }
    }

    Decision decide(DeadLetterView letter) {
        if (!filter.matches(letter)) {
            return Decision.skip(Outcome.SKIPPED_BY_FILTER);
        }
        boolean noPayload = letter.payloadOrigin().map(NO_PAYLOAD::equals).orElse(false);
        if ((letter.truncated() || noPayload) && !forceTruncated) {
            return Decision.skip(Outcome.SKIPPED_TRUNCATED);
        }
        return destinations.resolve(letter).map(target -> new Decision(Outcome.REPLAYED, Optional.of(target)))
                .orElse(Decision.skip(Outcome.SKIPPED_UNROUTABLE));
    }
}
