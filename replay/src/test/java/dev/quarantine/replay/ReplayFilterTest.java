package dev.quarantine.replay;

import static dev.quarantine.replay.Letters.letter;
import static dev.quarantine.replay.Letters.ourLetter;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.letters.ForeignHeaders;

import dev.quarantine.txn.DeadLetterHeaders;

/** One test per row of {@link ReplayFilter}'s table. */
class ReplayFilterTest {

    private static final String TOO_LARGE = "org.apache.kafka.common.errors.RecordTooLargeException";

    @Test
    void noFilterSelectsEveryDeadLetter() {
        assertThat(ReplayFilter.all().matches(letter())).isTrue();
    }

    @Test
    void errorClassMatchesBySimpleOrQualifiedNameInEitherHeaderStyle() {
        ReplayFilter simple = errorClasses("RecordTooLargeException");
        ReplayFilter qualified = errorClasses(TOO_LARGE);

        assertThat(simple.matches(ourLetter(DeadLetterHeaders.CONNECT_EXCEPTION, TOO_LARGE))).isTrue();
        assertThat(qualified.matches(ourLetter(DeadLetterHeaders.STREAMS_TOPIC, "in",
                DeadLetterHeaders.STREAMS_EXCEPTION, TOO_LARGE))).isTrue();
        assertThat(simple.matches(ourLetter(DeadLetterHeaders.CONNECT_EXCEPTION,
                "org.apache.kafka.common.InvalidRecordException"))).isFalse();
        assertThat(simple.matches(letter())).as("no exception header").isFalse();
    }

    @Test
    void originalTopicMatchesTheTopicOfTheOriginalDestination() {
        ReplayFilter filter = new ReplayFilter(Set.of(), Set.of("out"), Set.of(), Optional.empty(), Optional.empty(),
                List.of(), Set.of());

        assertThat(filter.matches(ourLetter(DeadLetterHeaders.CONNECT_TOPIC, "in", DeadLetterHeaders.TARGET_TOPIC, "out")))
                .isTrue();
        assertThat(filter.matches(ourLetter(DeadLetterHeaders.CONNECT_TOPIC, "out"))).as("Connect's own DLQ").isTrue();
        assertThat(filter.matches(ourLetter(DeadLetterHeaders.CONNECT_TOPIC, "out", DeadLetterHeaders.TARGET_TOPIC,
                "elsewhere"))).isFalse();
    }

    @Test
    void appOrConnectorMatchesTheConnectorNameOrTheStreamsApplicationId() {
        ReplayFilter filter = new ReplayFilter(Set.of(), Set.of(), Set.of("orders-copy", "billing-app"),
                Optional.empty(), Optional.empty(), List.of(), Set.of());

        assertThat(filter.matches(ourLetter(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "orders-copy"))).isTrue();
        assertThat(filter.matches(ourLetter(DeadLetterHeaders.APPLICATION_ID, "billing-app"))).isTrue();
        assertThat(filter.matches(ourLetter(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "other"))).isFalse();
        assertThat(filter.matches(letter())).isFalse();
    }

    @Test
    void aConnectorNameOrApplicationIdLongerThanATopicNameIsTreatedAsAbsent() {
        String longest = "c".repeat(249);
        String tooLong = longest + "c";
        ReplayFilter filter = new ReplayFilter(Set.of(), Set.of(), Set.of(longest, tooLong), Optional.empty(),
                Optional.empty(), List.of(), Set.of());

        assertThat(filter.matches(ourLetter(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, longest))).isTrue();
        assertThat(filter.matches(ourLetter(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, tooLong))).isFalse();
        assertThat(filter.matches(ourLetter(DeadLetterHeaders.APPLICATION_ID, tooLong))).isFalse();
        assertThat(ourLetter(DeadLetterHeaders.APPLICATION_ID, tooLong).applicationId()).isEmpty();
    }

    @Test
    void timeRangeIncludesItsStartAndExcludesItsEnd() {
        Instant at = Instant.ofEpochMilli(Letters.TIMESTAMP);
        ReplayFilter from = time(Optional.of(at), Optional.empty());
        ReplayFilter to = time(Optional.empty(), Optional.of(at));

        assertThat(from.matches(letter())).isTrue();
        assertThat(time(Optional.of(at.plusMillis(1)), Optional.empty()).matches(letter())).isFalse();
        assertThat(to.matches(letter())).isFalse();
        assertThat(time(Optional.empty(), Optional.of(at.plusMillis(1))).matches(letter())).isTrue();
    }

    @Test
    void timeRangeReadsTheTimestampTheReplayWritesSpringsOriginalOneWithinItsBound() {
        long failed = Letters.TIMESTAMP - 86_400_000L;
        Headers spring = Letters.headers(ForeignHeaders.SPRING_ORIGINAL_TOPIC, "orders");
        spring.add(ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP, ByteBuffer.allocate(8).putLong(failed).array());
        Headers huge = Letters.headers(ForeignHeaders.SPRING_ORIGINAL_TOPIC, "orders");
        huge.add(ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP, ByteBuffer.allocate(8).putLong(Long.MAX_VALUE).array());
        DeadLetterView springLetter = DeadLetterView.of(Letters.record(0, 0, Letters.TIMESTAMP, spring));
        DeadLetterView hugeLetter = DeadLetterView.of(Letters.record(0, 1, Letters.TIMESTAMP, huge));
        ReplayFilter before = time(Optional.empty(), Optional.of(Instant.ofEpochMilli(failed + 1)));

        assertThat(springLetter.originalTimestamp()).isEqualTo(failed);
        assertThat(before.matches(springLetter)).as("filtered by the time it is written with").isTrue();
        assertThat(hugeLetter.originalTimestamp()).as("past the bound: the dead letter's own")
                .isEqualTo(Letters.TIMESTAMP);
        assertThat(before.matches(hugeLetter)).isFalse();
        assertThat(time(Optional.of(Instant.ofEpochMilli(Letters.TIMESTAMP)), Optional.empty()).matches(hugeLetter))
                .isTrue();
    }

    @Test
    void offsetRangesAndListedOffsetsTogetherSelectPositions() {
        ReplayFilter filter = new ReplayFilter(Set.of(), Set.of(), Set.of(), Optional.empty(), Optional.empty(),
                List.of(new Positions.Range(0, 10, 19)), Set.of(new Positions.Position(1, 5)));

        assertThat(filter.matches(letter(0, 10))).isTrue();
        assertThat(filter.matches(letter(0, 19))).isTrue();
        assertThat(filter.matches(letter(0, 20))).isFalse();
        assertThat(filter.matches(letter(1, 5))).isTrue();
        assertThat(filter.matches(letter(1, 15))).isFalse();
    }

    @Test
    void everySetFilterMustMatch() {
        ReplayFilter filter = new ReplayFilter(Set.of("RecordTooLargeException"), Set.of(), Set.of(), Optional.empty(),
                Optional.empty(), List.of(new Positions.Range(0, 0, 5)), Set.of());

        assertThat(filter.matches(ourLetter(0, 3, DeadLetterHeaders.CONNECT_EXCEPTION, TOO_LARGE))).isTrue();
        assertThat(filter.matches(ourLetter(0, 9, DeadLetterHeaders.CONNECT_EXCEPTION, TOO_LARGE))).isFalse();
    }

    private static ReplayFilter errorClasses(String... names) {
        return new ReplayFilter(Set.of(names), Set.of(), Set.of(), Optional.empty(), Optional.empty(), List.of(),
                Set.of());
    }

    private static ReplayFilter time(Optional<Instant> from, Optional<Instant> to) {
        return new ReplayFilter(Set.of(), Set.of(), Set.of(), from, to, List.of(), Set.of());
    }
}
