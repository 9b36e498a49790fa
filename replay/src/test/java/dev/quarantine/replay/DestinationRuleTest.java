package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.quarantine.replay.DestinationRule.Verdict;

/** One test per row of {@link DestinationRule}'s table. */
class DestinationRuleTest {

    private static final Pattern DENIED = Pattern.compile(ReplayConfig.DESTINATIONS_DENIED_DEFAULT);

    private static DestinationRule rule(Optional<String> chosen, String allowed) {
        return rule(chosen, allowed, DENIED);
    }

    private static DestinationRule rule(Optional<String> chosen, String allowed, Pattern denied) {
        return new DestinationRule("orders.dlq", chosen,
                allowed.isEmpty() ? Optional.empty() : Optional.of(Pattern.compile(allowed)), denied);
    }

    @Test
    void refusesKafkaInternalTopicsEvenWhenAllowedOrChosen() {
        DestinationRule rule = rule(Optional.of("__consumer_offsets"), ".*");

        assertThat(rule.decide("__consumer_offsets")).isEqualTo(Verdict.INTERNAL);
        assertThat(rule.decide("__transaction_state")).isEqualTo(Verdict.INTERNAL);
        assertThat(rule.decide("__anything")).isEqualTo(Verdict.INTERNAL);
    }

    @Test
    void refusesInternalTopicsByTheDotInternalConventionEvenWhenAllowedOrChosen() {
        DestinationRule rule = rule(Optional.of("orders-sink.progress.internal"), ".*");

        assertThat(rule.decide("orders-sink.progress.internal")).as("the exactly-once sink's progress")
                .isEqualTo(Verdict.INTERNAL);
        assertThat(rule.decide("mm2-offsets.west.internal")).as("MirrorMaker 2's").isEqualTo(Verdict.INTERNAL);
        assertThat(rule.decide("orders.internal-audit")).as("a suffix, not a part").isEqualTo(Verdict.ALLOWED);
    }

    @Test
    void refusesItsOwnAndEveryReplaysProgressAndParkingTopicByTheirReservedNamesEvenWhenAllowed() {
        DestinationRule rule = rule(Optional.empty(), ".*");

        assertThat(rule.decide("orders.dlq")).as("its dead-letter topic").isEqualTo(Verdict.REPLAYS_OWN);
        assertThat(rule.decide("orders.dlq.parking")).as("its parking topic").isEqualTo(Verdict.REPLAYS_OWN);
        assertThat(rule.decide("quarantine-replay-progress")).as("the default progress topic")
                .isEqualTo(Verdict.REPLAYS_OWN);
        assertThat(rule.decide("quarantine-replay-progress-team-a")).as("another replay's own progress topic")
                .isEqualTo(Verdict.REPLAYS_OWN);
        assertThat(rule.decide("payments.dlq.parking")).as("another replay's parking topic")
                .isEqualTo(Verdict.REPLAYS_OWN);
        assertThat(rule.decide("team-a-replay-progress")).as("not a name a progress topic may have")
                .isEqualTo(Verdict.ALLOWED);
    }

    @Test
    void refusesConnectsDefaultWorkerTopicsWhateverTheDenyListSays() {
        for (Pattern denied : List.of(DENIED, Pattern.compile("other"), Pattern.compile(""))) {
            DestinationRule rule = rule(Optional.of("connect-configs"), ".*", denied);

            assertThat(rule.decide("connect-configs")).as("denied %s", denied).isEqualTo(Verdict.CONNECT_DEFAULT);
            assertThat(rule.decide("connect-offsets")).as("denied %s", denied).isEqualTo(Verdict.CONNECT_DEFAULT);
            assertThat(rule.decide("connect-status")).as("denied %s", denied).isEqualTo(Verdict.CONNECT_DEFAULT);
            assertThat(rule.decide("my-connect-configs")).as("the names only").isEqualTo(Verdict.ALLOWED);
        }
    }

    @Test
    void refusesWhatTheDenyListAddsEvenWhenAllowedOrChosen() {
        DestinationRule rule = rule(Optional.of("prod-configs"), ".*", Pattern.compile("prod-(configs|offsets)"));

        assertThat(rule.decide("prod-configs")).isEqualTo(Verdict.DENIED);
        assertThat(rule.decide("prod-offsets")).isEqualTo(Verdict.DENIED);
        assertThat(rule.decide("prod-offsets-archive")).as("matched in full only").isEqualTo(Verdict.ALLOWED);
    }

    @Test
    void allowsTheTopicTheOperatorNamedWithoutAnAllowList() {
        DestinationRule rule = rule(Optional.of("orders-retry"), "");

        assertThat(rule.decide("orders-retry")).isEqualTo(Verdict.ALLOWED);
        assertThat(rule.decide("orders")).isEqualTo(Verdict.NOT_ALLOWED);
    }

    @Test
    void allowsWhatTheAllowListMatchesInFull() {
        DestinationRule rule = rule(Optional.empty(), "orders|payments\\..*");

        assertThat(rule.decide("orders")).isEqualTo(Verdict.ALLOWED);
        assertThat(rule.decide("payments.eu")).isEqualTo(Verdict.ALLOWED);
        assertThat(rule.decide("orders-archive")).isEqualTo(Verdict.NOT_ALLOWED);
        assertThat(rule.decide("xpayments.eu")).isEqualTo(Verdict.NOT_ALLOWED);
    }

    @Test
    void refusesEveryHeaderChosenTopicWhenTheAllowListIsEmpty() {
        assertThat(rule(Optional.empty(), "").decide("orders")).isEqualTo(Verdict.NOT_ALLOWED);
    }
}
