package dev.quarantine.replay;

import static dev.quarantine.replay.Letters.letter;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.quarantine.txn.DeadLetterHeaders;

/** The order of {@link RecordPlan}'s checks: filters, then truncation, then the destination. */
class RecordPlanTest {

    private static final DestinationResolver ORIGINAL =
            new DestinationResolver(Destination.parse(ReplayConfig.DESTINATION_CONFIG, "original"));

    @Test
    void replaysAWholeDeadLetterToItsDestination() {
        RecordPlan.Decision decision = plan(false).decide(letter(DeadLetterHeaders.TARGET_TOPIC, "out",
                DeadLetterHeaders.PAYLOAD_TRUNCATED, "false"));

        assertThat(decision.outcome()).isEqualTo(Outcome.REPLAYED);
        assertThat(decision.target()).hasValueSatisfying(t -> assertThat(t.topic()).isEqualTo("out"));
    }

    @Test
    void skipsATruncatedDeadLetterUnlessForced() {
        var truncated = letter(DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.PAYLOAD_TRUNCATED, "value");

        assertThat(plan(false).decide(truncated).outcome()).isEqualTo(Outcome.SKIPPED_TRUNCATED);
        assertThat(plan(true).decide(truncated).outcome()).isEqualTo(Outcome.REPLAYED);
    }

    @Test
    void countsAStreamsDeadLetterWithoutPayloadAsTruncated() {
        var empty = letter(DeadLetterHeaders.STREAMS_TOPIC, "in", DeadLetterHeaders.PAYLOAD_ORIGIN, "none",
                DeadLetterHeaders.PAYLOAD_TRUNCATED, "false");

        assertThat(plan(false).decide(empty).outcome()).isEqualTo(Outcome.SKIPPED_TRUNCATED);
    }

    @Test
    void theFilterComesBeforeTruncation() {
        RecordPlan plan = new RecordPlan(new ReplayFilter(Set.of("SerializationException"), Set.of(), Set.of(),
                Optional.empty(), Optional.empty(), List.of(), Set.of()), ORIGINAL, false);

        assertThat(plan.decide(letter(DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.PAYLOAD_TRUNCATED,
                "key")).outcome()).isEqualTo(Outcome.SKIPPED_BY_FILTER);
    }

    @Test
    void aDeadLetterWithNoDestinationIsUnroutable() {
        assertThat(plan(false).decide(letter("trace-id", "1")).outcome()).isEqualTo(Outcome.SKIPPED_UNROUTABLE);
    }

    private static RecordPlan plan(boolean forceTruncated) {
        return new RecordPlan(ReplayFilter.all(), ORIGINAL, forceTruncated);
    }
}
