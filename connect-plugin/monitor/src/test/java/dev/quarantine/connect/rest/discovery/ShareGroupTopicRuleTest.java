package dev.quarantine.connect.rest.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** One test per row of {@link ShareGroupTopicRule}'s table, in its order; and {@link ShareGroupDlqs#keepFailed}. */
class ShareGroupTopicRuleTest {

    private static final ShareGroupTopicRule RULE = new ShareGroupTopicRule(
            Pattern.compile("(?:my-configs)|(?:monitor-app-.*)"));

    @Test
    void refusesAnOverLongGroupIdOrOneWithAControlCharacter() {
        String longest = "g".repeat(ShareGroupTopicRule.MAX_GROUP_ID_CHARS);

        assertThat(RULE.refusal(longest, "dlq.orders")).isEmpty();
        assertThat(RULE.refusal(longest + "g", "dlq.orders")).isPresent();
        assertThat(RULE.refusal("payers\nforged log line", "dlq.orders")).isPresent();
    }

    @Test
    void refusesATopicNameKafkaDoesNotAccept() {
        for (String topic : List.of("", "bad topic", "<b>x</b>", "..", "t".repeat(250), "dlq/../x")) {
            assertThat(RULE.refusal("payers", topic)).as(topic.length() > 20 ? "long" : topic)
                    .hasValueSatisfying(why -> assertThat(why).contains("not a legal topic name")
                            .doesNotContain("<b>"));
        }
    }

    @Test
    void refusesReservedNamesTheReplayRefusesToo() {
        for (String topic : List.of("__consumer_offsets", "__transaction_state", "__share_group_state",
                "orders-sink.progress.internal", "mm2-offsets.west.internal", "quarantine-replay-progress",
                "dlq.orders.parking", "connect-configs", "connect-offsets", "connect-status")) {
            assertThat(RULE.refusal("payers", topic)).as(topic).isPresent();
        }
    }

    @Test
    void refusesTheWorkersAndTheMonitorsOwnTopics() {
        assertThat(RULE.refusal("payers", "my-configs")).hasValueSatisfying(why -> assertThat(why).contains("own"));
        assertThat(RULE.refusal("payers", "monitor-app-abc-store-changelog")).isPresent();
    }

    @Test
    void acceptsAnyOtherTopicAndMonitorsAtMostTheFirstByName() {
        assertThat(RULE.refusal("payers", "dlq.payments")).isEmpty();
        Map<String, String> topicByGroup = new HashMap<>();
        for (int i = 0; i < ShareGroupTopicRule.MAX_TOPICS + 20; i++) {
            topicByGroup.put(String.format("group-%03d", i), String.format("dlq.t%03d", i));
        }
        topicByGroup.put("evil", "__consumer_offsets");
        topicByGroup.put("same-as-first", "dlq.t000");

        Map<String, String> selected = RULE.select(topicByGroup);

        assertThat(selected).hasSize(ShareGroupTopicRule.MAX_TOPICS).doesNotContainKey("__consumer_offsets")
                .containsEntry("dlq.t000", "group-000").containsKey(String.format("dlq.t%03d",
                        ShareGroupTopicRule.MAX_TOPICS - 1));
    }

    @Test
    void aGroupWhoseConfigCouldNotBeReadKeepsItsTopicAndTheOthersStay() {
        Map<String, String> before = Map.of("a", "dlq.a", "b", "dlq.b", "gone", "dlq.gone");

        assertThat(ShareGroupDlqs.keepFailed(Map.of("a", "dlq.a2", "c", "dlq.c"), List.of("b", "new"), before))
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", "dlq.a2", "b", "dlq.b", "c", "dlq.c"));
    }

    @Test
    void takesOnlyTopicsThatExistWithTheGroupDeadLetterConfigKeepingOneUnreadThatWasTakenBefore() {
        SortedMap<String, String> selected = new TreeMap<>(Map.of("dlq.ok", "g1", "payments",
                "g2", "no-such", "g3", "dlq.unread", "g4", "dlq.unread-new", "g5"));
        Map<String, Optional<Boolean>> enabled = Map.of("dlq.ok", Optional.of(true), "payments",
                Optional.of(false), "no-such", Optional.of(false), "dlq.unread",
                Optional.empty(), "dlq.unread-new", Optional.empty());

        assertThat(ShareGroupDlqs.enabledOnly(selected, enabled, Map.of("dlq.unread", "g4", "payments", "g2")))
                .containsExactlyInAnyOrderEntriesOf(Map.of("dlq.ok", "g1", "dlq.unread", "g4"));
    }
}
