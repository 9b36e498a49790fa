package dev.quarantine.replay;

import static dev.quarantine.replay.Letters.letter;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.quarantine.replay.DestinationResolver.Target;
import dev.quarantine.replay.letters.ForeignHeaders;
import dev.quarantine.txn.DeadLetterHeaders;

/** One test per row of {@link DestinationResolver}'s table. */
class DestinationResolverTest {

    private static final DestinationResolver ORIGINAL = resolver("original");
    private static final DestinationResolver SOURCE = resolver("source");

    @Test
    void originalIsTheTargetTopicAndPartitionWhenTheDeadLetterNamesThem() {
        Target target = ORIGINAL.resolve(letter(DeadLetterHeaders.CONNECT_TOPIC, "in",
                DeadLetterHeaders.CONNECT_PARTITION, "4", DeadLetterHeaders.ERROR_CATEGORY, "RECORD",
                DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.TARGET_PARTITION, "2")).target().orElseThrow();

        assertThat(target.topic()).isEqualTo("out");
        assertThat(target.partition()).isEqualTo(2);
        assertThat(text(target.value())).isEqualTo("value");
    }

    @Test
    void originalLeavesThePartitionToThePartitionerWhenOnlyTheTargetTopicIsKnown() {
        Target target = ORIGINAL.resolve(letter(DeadLetterHeaders.STREAMS_TOPIC, "in",
                DeadLetterHeaders.ERROR_CATEGORY, "RECORD", DeadLetterHeaders.TARGET_TOPIC, "out")).target()
                .orElseThrow();

        assertThat(target.topic()).isEqualTo("out");
        assertThat(target.partition()).isNull();
    }

    @Test
    void originalIsTheInputTopicForKafkaConnectsOwnDeadLetters() {
        Target target = ORIGINAL.resolve(letter(DeadLetterHeaders.CONNECT_TOPIC, "sink-input",
                DeadLetterHeaders.CONNECT_PARTITION, "1", DeadLetterHeaders.CONNECT_OFFSET, "77")).target().orElseThrow();

        assertThat(target.topic()).isEqualTo("sink-input");
        assertThat(target.partition()).isEqualTo(1);
    }

    @Test
    void originalIsTheShareGroupsTopicAndPartitionForAShareGroupDeadLetter() {
        Target target = ORIGINAL.resolve(letter(ForeignHeaders.SHARE_TOPIC, "payments", ForeignHeaders.SHARE_PARTITION,
                "3", ForeignHeaders.SHARE_OFFSET, "9", ForeignHeaders.SHARE_GROUP, "payers")).target().orElseThrow();

        assertThat(target.topic()).isEqualTo("payments");
        assertThat(target.partition()).isEqualTo(3);
    }

    @Test
    void aDeadLetterOfUnknownFormatIsUnroutableForOriginalAndSourceNeverGuessed() {
        for (DestinationResolver resolver : new DestinationResolver[] {ORIGINAL, SOURCE}) {
            DestinationResolver.Resolution resolution = resolver.resolve(letter("trace-id", "t1",
                    "kafka_dlt_original_topic", "orders"));

            assertThat(resolution.target()).isEmpty();
            assertThat(resolution.unroutable()).startsWith("format unknown");
        }
    }

    @Test
    void ourTargetHeadersWithoutOurErrorCategoryNeverRouteALetter() {
        for (DestinationResolver resolver : new DestinationResolver[] {ORIGINAL, SOURCE}) {
            DestinationResolver.Resolution alone = resolver.resolve(letter(DeadLetterHeaders.TARGET_TOPIC, "payments",
                    DeadLetterHeaders.TARGET_PARTITION, "0"));

            assertThat(alone.target()).isEmpty();
            assertThat(alone.unroutable()).startsWith("format unknown");
        }
        Target planted = ORIGINAL.resolve(letter(DeadLetterHeaders.TARGET_TOPIC, "payments",
                DeadLetterHeaders.TARGET_PARTITION, "0", DeadLetterHeaders.CONNECT_TOPIC, "orders",
                DeadLetterHeaders.CONNECT_PARTITION, "2", DeadLetterHeaders.CONNECT_OFFSET, "7",
                DeadLetterHeaders.CONNECT_EXCEPTION, "a.B")).target().orElseThrow();
        assertThat(planted.topic()).as("Kafka Connect's own letter goes back to its input").isEqualTo("orders");
        assertThat(planted.partition()).isEqualTo(2);
    }

    @Test
    void anIllegalSharePartitionHeaderMakesItUnroutable() {
        DestinationResolver.Resolution resolution = ORIGINAL.resolve(letter(ForeignHeaders.SHARE_TOPIC, "payments",
                ForeignHeaders.SHARE_PARTITION, "-3"));

        assertThat(resolution.target()).isEmpty();
        assertThat(resolution.unroutable()).contains(ForeignHeaders.SHARE_PARTITION).doesNotContain("-3");
    }

    @Test
    void originalIsTheInputTopicForAStreamsDeadLetterThatCarriesTheInputsBytes() {
        Target target = ORIGINAL.resolve(letter(DeadLetterHeaders.STREAMS_TOPIC, "app-input",
                DeadLetterHeaders.STREAMS_PARTITION, "0", DeadLetterHeaders.ERROR_CATEGORY, "RECORD",
                DeadLetterHeaders.TARGET_TOPIC, "app-output", DeadLetterHeaders.PAYLOAD_ORIGIN, "input")).target()
                .orElseThrow();

        assertThat(target.topic()).isEqualTo("app-input");
    }

    @Test
    void sourceUsesStreamsRawInputKeyAndValueWhenPresent() {
        Target target = SOURCE.resolve(letter(DeadLetterHeaders.STREAMS_TOPIC, "app-input",
                DeadLetterHeaders.STREAMS_PARTITION, "3", DeadLetterHeaders.ERROR_CATEGORY, "RECORD",
                DeadLetterHeaders.TARGET_TOPIC, "app-output", DeadLetterHeaders.SOURCE_RAW_KEY, "raw-key",
                DeadLetterHeaders.SOURCE_RAW_VALUE, "raw-value"))
                .target().orElseThrow();

        assertThat(target.topic()).isEqualTo("app-input");
        assertThat(target.partition()).isEqualTo(3);
        assertThat(text(target.key())).isEqualTo("raw-key");
        assertThat(text(target.value())).isEqualTo("raw-value");
    }

    @Test
    void sourceUsesTheDeadLettersKeyAndValueWithoutRawInput() {
        Target target = SOURCE.resolve(letter(DeadLetterHeaders.CONNECT_TOPIC, "in",
                DeadLetterHeaders.TARGET_TOPIC, "out")).target().orElseThrow();

        assertThat(target.topic()).isEqualTo("in");
        assertThat(text(target.key())).isEqualTo("key");
    }

    @Test
    void aNamedTopicTakesEveryDeadLetterWithThePartitionersChoice() {
        Target target = resolver("retry-orders").resolve(letter(DeadLetterHeaders.TARGET_TOPIC, "out",
                DeadLetterHeaders.TARGET_PARTITION, "2")).target().orElseThrow();

        assertThat(target.topic()).isEqualTo("retry-orders");
        assertThat(target.partition()).isNull();
    }

    @Test
    void aDeadLetterWithoutTopicHeadersHasNoOriginalOrSourceDestination() {
        assertThat(ORIGINAL.resolve(letter("trace", "abc")).target()).isEmpty();
        assertThat(SOURCE.resolve(letter(DeadLetterHeaders.TARGET_TOPIC, "out")).target()).isEmpty();
        assertThat(DestinationResolver.originalTopic(letter())).isEqualTo(Optional.empty());
    }

    @Test
    void anIllegalPartitionHeaderMakesTheDeadLetterUnroutableInsteadOfLettingThePartitionerChoose() {
        for (String partition : new String[] {"-1", "2147483648", "abc", "1".repeat(10_000), "", "1.5", "+3",
            "99999999999999999999"}) {
            DestinationResolver.Resolution resolution = ORIGINAL.resolve(letter(DeadLetterHeaders.ERROR_CATEGORY,
                    "RECORD", DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.TARGET_PARTITION, partition));

            assertThat(resolution.target()).as("partition header of %d chars", partition.length()).isEmpty();
            assertThat(resolution.unroutable()).isEqualTo(DeadLetterHeaders.TARGET_PARTITION
                    + " is not a number from 0 to 2147483647");
        }
        assertThat(ORIGINAL.resolve(letter(DeadLetterHeaders.ERROR_CATEGORY, "RECORD", DeadLetterHeaders.TARGET_TOPIC,
                "out", DeadLetterHeaders.TARGET_PARTITION, " 2147483647 ")).target())
                .hasValueSatisfying(t -> assertThat(t.partition()).isEqualTo(2147483647));
    }

    @Test
    void anIllegalTopicHeaderIsUnroutableAndDoesNotFallBackToTheInputTopic() {
        for (String topic : new String[] {"a/b", "", "..", "x".repeat(250), "x".repeat(10_000), "caf\u00e9"}) {
            DestinationResolver.Resolution resolution = ORIGINAL.resolve(letter(DeadLetterHeaders.CONNECT_TOPIC, "in",
                    DeadLetterHeaders.CONNECT_PARTITION, "0", DeadLetterHeaders.ERROR_CATEGORY, "RECORD",
                    DeadLetterHeaders.TARGET_TOPIC, topic));

            assertThat(resolution.target()).as("topic header of %d chars", topic.length()).isEmpty();
            assertThat(resolution.unroutable()).startsWith(DeadLetterHeaders.TARGET_TOPIC + " is ");
        }
        assertThat(SOURCE.resolve(letter(DeadLetterHeaders.CONNECT_TOPIC, "in", DeadLetterHeaders.CONNECT_PARTITION,
                "-1")).unroutable()).isEqualTo(DeadLetterHeaders.CONNECT_PARTITION
                + " is not a number from 0 to 2147483647");
    }

    private static DestinationResolver resolver(String destination) {
        return new DestinationResolver(Destination.parse(ReplayConfig.DESTINATION_CONFIG, destination));
    }
}
