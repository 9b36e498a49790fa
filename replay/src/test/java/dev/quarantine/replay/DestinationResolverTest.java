package dev.quarantine.replay;

import static dev.quarantine.replay.Letters.letter;
import static dev.quarantine.replay.Letters.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.quarantine.replay.DestinationResolver.Target;
import dev.quarantine.txn.DeadLetterHeaders;

/** One test per row of {@link DestinationResolver}'s table. */
class DestinationResolverTest {

    private static final DestinationResolver ORIGINAL = resolver("original");
    private static final DestinationResolver SOURCE = resolver("source");

    @Test
    void originalIsTheTargetTopicAndPartitionWhenTheDeadLetterNamesThem() {
        Target target = ORIGINAL.resolve(letter(DeadLetterHeaders.CONNECT_TOPIC, "in",
                DeadLetterHeaders.CONNECT_PARTITION, "4", DeadLetterHeaders.TARGET_TOPIC, "out",
                DeadLetterHeaders.TARGET_PARTITION, "2")).orElseThrow();

        assertThat(target.topic()).isEqualTo("out");
        assertThat(target.partition()).isEqualTo(2);
        assertThat(text(target.value())).isEqualTo("value");
    }

    @Test
    void originalLeavesThePartitionToThePartitionerWhenOnlyTheTargetTopicIsKnown() {
        Target target = ORIGINAL.resolve(letter(DeadLetterHeaders.STREAMS_TOPIC, "in",
                DeadLetterHeaders.TARGET_TOPIC, "out")).orElseThrow();

        assertThat(target.topic()).isEqualTo("out");
        assertThat(target.partition()).isNull();
    }

    @Test
    void originalIsTheInputTopicForKafkaConnectsOwnDeadLetters() {
        Target target = ORIGINAL.resolve(letter(DeadLetterHeaders.CONNECT_TOPIC, "sink-input",
                DeadLetterHeaders.CONNECT_PARTITION, "1", DeadLetterHeaders.CONNECT_OFFSET, "77")).orElseThrow();

        assertThat(target.topic()).isEqualTo("sink-input");
        assertThat(target.partition()).isEqualTo(1);
    }

    @Test
    void originalIsTheInputTopicForAStreamsDeadLetterThatCarriesTheInputsBytes() {
        Target target = ORIGINAL.resolve(letter(DeadLetterHeaders.STREAMS_TOPIC, "app-input",
                DeadLetterHeaders.STREAMS_PARTITION, "0", DeadLetterHeaders.TARGET_TOPIC, "app-output",
                DeadLetterHeaders.PAYLOAD_ORIGIN, "input")).orElseThrow();

        assertThat(target.topic()).isEqualTo("app-input");
    }

    @Test
    void sourceUsesStreamsRawInputKeyAndValueWhenPresent() {
        Target target = SOURCE.resolve(letter(DeadLetterHeaders.STREAMS_TOPIC, "app-input",
                DeadLetterHeaders.STREAMS_PARTITION, "3", DeadLetterHeaders.TARGET_TOPIC, "app-output",
                DeadLetterHeaders.SOURCE_RAW_KEY, "raw-key", DeadLetterHeaders.SOURCE_RAW_VALUE, "raw-value"))
                .orElseThrow();

        assertThat(target.topic()).isEqualTo("app-input");
        assertThat(target.partition()).isEqualTo(3);
        assertThat(text(target.key())).isEqualTo("raw-key");
        assertThat(text(target.value())).isEqualTo("raw-value");
    }

    @Test
    void sourceUsesTheDeadLettersKeyAndValueWithoutRawInput() {
        Target target = SOURCE.resolve(letter(DeadLetterHeaders.CONNECT_TOPIC, "in",
                DeadLetterHeaders.TARGET_TOPIC, "out")).orElseThrow();

        assertThat(target.topic()).isEqualTo("in");
        assertThat(text(target.key())).isEqualTo("key");
    }

    @Test
    void aNamedTopicTakesEveryDeadLetterWithThePartitionersChoice() {
        Target target = resolver("retry-orders").resolve(letter(DeadLetterHeaders.TARGET_TOPIC, "out",
                DeadLetterHeaders.TARGET_PARTITION, "2")).orElseThrow();

        assertThat(target.topic()).isEqualTo("retry-orders");
        assertThat(target.partition()).isNull();
    }

    @Test
    void aDeadLetterWithoutTopicHeadersHasNoOriginalOrSourceDestination() {
        assertThat(ORIGINAL.resolve(letter("trace", "abc"))).isEmpty();
        assertThat(SOURCE.resolve(letter(DeadLetterHeaders.TARGET_TOPIC, "out"))).isEmpty();
        assertThat(DestinationResolver.originalTopic(letter())).isEqualTo(Optional.empty());
    }

    private static DestinationResolver resolver(String destination) {
        return new DestinationResolver(Destination.parse(ReplayConfig.DESTINATION_CONFIG, destination));
    }
}
