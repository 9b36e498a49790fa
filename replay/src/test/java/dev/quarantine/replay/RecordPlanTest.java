package dev.quarantine.replay;

import static dev.quarantine.replay.Letters.letter;
import static dev.quarantine.replay.Letters.ourLetter;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.quarantine.replay.letters.ForeignHeaders;
import dev.quarantine.txn.DeadLetterHeaders;

/** One test per row of {@link RecordPlan}'s table, in its order. */
class RecordPlanTest {

    private static final DestinationResolver ORIGINAL =
            new DestinationResolver(Destination.parse(ReplayConfig.DESTINATION_CONFIG, "original"));
    private static final DestinationRule RULE = new DestinationRule(Letters.DLQ, Optional.empty(), Optional.of(Pattern.compile("out|in")), Pattern.compile("connect-configs"));

    @Test
    void replaysAWholeDeadLetterToItsDestination() {
        RecordPlan.Decision decision = plan(false).decide(ourLetter(DeadLetterHeaders.TARGET_TOPIC, "out",
                DeadLetterHeaders.PAYLOAD_TRUNCATED, "false"));

        assertThat(decision.outcome()).isEqualTo(Outcome.REPLAYED);
        assertThat(decision.target()).hasValueSatisfying(t -> assertThat(t.topic()).isEqualTo("out"));
    }

    @Test
    void skipsATruncatedDeadLetterUnlessForced() {
        var truncated = ourLetter(DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.PAYLOAD_TRUNCATED, "value");

        assertThat(plan(false).decide(truncated).outcome()).isEqualTo(Outcome.SKIPPED_TRUNCATED);
        assertThat(plan(true).decide(truncated).outcome()).isEqualTo(Outcome.REPLAYED);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            false                  | REPLAYED
            context                | REPLAYED
            headers                | SKIPPED_TRUNCATED
            'key,value'            | SKIPPED_TRUNCATED
            'headers,context'      | SKIPPED_TRUNCATED
            'context,value'        | SKIPPED_TRUNCATED
            something-new          | SKIPPED_TRUNCATED
            ''                     | SKIPPED_TRUNCATED
            """)
    void skipsADeadLetterWhoseRecordWasCutNotOneWhoseContextValuesAloneWereShortened(String cut, Outcome outcome) {
        var letter = ourLetter(DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.PAYLOAD_TRUNCATED, cut);

        assertThat(plan(false).decide(letter).outcome()).isEqualTo(outcome);
    }

    @Test
    void countsAStreamsDeadLetterWithoutPayloadAsTruncated() {
        var empty = ourLetter(DeadLetterHeaders.STREAMS_TOPIC, "in", DeadLetterHeaders.PAYLOAD_ORIGIN, "none",
                DeadLetterHeaders.PAYLOAD_TRUNCATED, "false");

        assertThat(plan(false).decide(empty).outcome()).isEqualTo(Outcome.SKIPPED_TRUNCATED);
    }

    @Test
    void countsAShareGroupDeadLetterWithoutACopiedRecordAsTruncatedUnlessForced() {
        DeadLetterView empty = DeadLetterView.of(new ConsumerRecord<>(Letters.DLQ, 0, 0, Letters.TIMESTAMP,
                TimestampType.CREATE_TIME, -1, -1, null, null, Letters.headers(ForeignHeaders.SHARE_TOPIC, "in",
                ForeignHeaders.SHARE_PARTITION, "0"), Optional.empty()));
        DeadLetterView copied = letter(ForeignHeaders.SHARE_TOPIC, "in", ForeignHeaders.SHARE_PARTITION, "0");

        assertThat(plan(false).decide(empty).outcome()).isEqualTo(Outcome.SKIPPED_TRUNCATED);
        assertThat(plan(true).decide(empty).outcome()).isEqualTo(Outcome.REPLAYED);
        assertThat(plan(false).decide(copied).outcome()).isEqualTo(Outcome.REPLAYED);
    }

    @Test
    void theFilterComesBeforeTruncation() {
        RecordPlan plan = new RecordPlan(new ReplayFilter(Set.of("SerializationException"), Set.of(), Set.of(),
                Optional.empty(), Optional.empty(), List.of(), Set.of()), WrittenOffsets.NONE, ORIGINAL, RULE,
                topic -> OptionalInt.of(3), false);

        assertThat(plan.decide(ourLetter(DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.PAYLOAD_TRUNCATED,
                "key")).outcome()).isEqualTo(Outcome.SKIPPED_BY_FILTER);
    }

    @Test
    void aDeadLetterWithNoDestinationIsUnroutable() {
        assertThat(plan(false).decide(letter("trace-id", "1")).outcome()).isEqualTo(Outcome.SKIPPED_UNROUTABLE);
    }

    @Test
    void skipsADeadLetterAFinishedReplayWroteBeforeLookingAtIt() {
        WrittenOffsets written = WrittenOffsets.NONE.plus(0, 4, null).plus(0, 6, 4L);
        RecordPlan plan = new RecordPlan(ReplayFilter.all(), written, ORIGINAL, RULE, topic -> OptionalInt.of(3),
                false);

        assertThat(plan.decide(ourLetter(0, 5, DeadLetterHeaders.TARGET_TOPIC, "out")).outcome())
                .isEqualTo(Outcome.SKIPPED_ALREADY_REPLAYED);
        assertThat(plan.decide(ourLetter(0, 7, DeadLetterHeaders.TARGET_TOPIC, "out")).outcome())
                .isEqualTo(Outcome.REPLAYED);
        assertThat(plan.decide(ourLetter(1, 5, DeadLetterHeaders.TARGET_TOPIC, "out")).outcome())
                .isEqualTo(Outcome.REPLAYED);
    }

    @Test
    void refusesADestinationTheRuleDoesNotAllowNamingTheTopicAndWhy() {
        RecordPlan.Decision decision = plan(false).decide(ourLetter(DeadLetterHeaders.TARGET_TOPIC, "__consumer_offsets",
                DeadLetterHeaders.TARGET_PARTITION, "0"));

        assertThat(decision.outcome()).isEqualTo(Outcome.REFUSED_DESTINATION);
        assertThat(decision.target()).isEmpty();
        assertThat(decision.topic()).contains("__consumer_offsets");
        assertThat(decision.reason()).contains("is a Kafka-internal topic");
        assertThat(plan(false).decide(ourLetter(DeadLetterHeaders.TARGET_TOPIC, "payments")).outcome())
                .as("not in the allow-list").isEqualTo(Outcome.REFUSED_DESTINATION);
    }

    @Test
    void aPartitionTheDestinationDoesNotHaveIsUnroutable() {
        RecordPlan.Decision decision = plan(false).decide(ourLetter(DeadLetterHeaders.TARGET_TOPIC, "out",
                DeadLetterHeaders.TARGET_PARTITION, "3"));

        assertThat(decision.outcome()).isEqualTo(Outcome.SKIPPED_UNROUTABLE);
        assertThat(decision.reason()).contains("its partition header names partition 3, but out has 3 partitions");
        assertThat(plan(false).decide(ourLetter(DeadLetterHeaders.TARGET_TOPIC, "out",
                DeadLetterHeaders.TARGET_PARTITION, "2")).outcome()).isEqualTo(Outcome.REPLAYED);
    }

    @Test
    void aNegativeTimestampIsUnroutable() {
        DeadLetterView noTime = DeadLetterView.of(Letters.record(0, 0, -1,
                Letters.headers(DeadLetterHeaders.TARGET_TOPIC, "out")));

        assertThat(plan(false).decide(noTime).outcome()).isEqualTo(Outcome.SKIPPED_UNROUTABLE);
    }

    private static RecordPlan plan(boolean forceTruncated) {
        return new RecordPlan(ReplayFilter.all(), WrittenOffsets.NONE, ORIGINAL, RULE, topic -> OptionalInt.of(3),
                forceTruncated);
    }
}
