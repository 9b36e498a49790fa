package dev.quarantine.connect.rest.discovery;

import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

import dev.quarantine.replay.ReservedTopics;
import dev.quarantine.txn.TopicNames;
import dev.quarantine.connect.rest.replays.ReplayDestinations;

/**
 * Which topics the share groups' {@code errors.deadletterqueue.topic.name} configs may add to the monitored set.
 * Whoever may alter a group's config chooses that value, so it is hostile input; the first row that matches decides:
 *
 * <table>
 * <caption>A share group's dead-letter topic</caption>
 * <tr><th>group or topic</th><th>verdict</th></tr>
 * <tr><td>a group id longer than {@value #MAX_GROUP_ID_CHARS} characters, or with a control character</td>
 *     <td>refused</td></tr>
 * <tr><td>a topic name Kafka does not accept ({@link TopicNames})</td><td>refused</td></tr>
 * <tr><td>a reserved name ({@link ReservedTopics}: {@code __*} and {@code *.internal} (Kafka's and the sink's
 *     progress topics), replays' progress and parking topics, Connect's default worker topics)</td>
 *     <td>refused</td></tr>
 * <tr><td>this worker's config, offset and status topics, or the monitor's own topics (as the replay's denied list:
 *     {@link ReplayDestinations})</td><td>refused</td></tr>
 * <tr><td>any other</td><td>accepted; of the accepted topics the first {@value #MAX_TOPICS} by name are monitored</td>
 *     </tr>
 * </table>
 */
public final class ShareGroupTopicRule {

    /** The most topics the share groups may add: each one more topic the aggregation reads. */
    static final int MAX_TOPICS = 100;
    /** The longest group id taken: a topic name's limit, as for the group headers of dead letters. */
    static final int MAX_GROUP_ID_CHARS = 249;

    private final Pattern workerAndMonitorTopics;

    /** @param workerAndMonitorTopics the worker's and the monitor's own topics ({@link ReplayDestinations#denied()}) */
    public ShareGroupTopicRule(Pattern workerAndMonitorTopics) {
        this.workerAndMonitorTopics = workerAndMonitorTopics;
    }

    /** Why a share group's dead-letter topic is refused (naming neither), or empty when it is accepted. */
    Optional<String> refusal(String groupId, String topic) {
        if (groupId.length() > MAX_GROUP_ID_CHARS || groupId.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("the group id is longer than " + MAX_GROUP_ID_CHARS
                    + " characters or has a control character");
        }
        if (!TopicNames.isLegal(topic)) {
            return Optional.of("the topic is not a legal topic name (" + TopicNames.RULE + ")");
        }
        Optional<String> reserved = ReservedTopics.of(topic).map(ReservedTopics.Kind::reason);
        if (reserved.isPresent()) {
            return reserved.map(reason -> "the topic " + reason);
        }
        if (workerAndMonitorTopics.matcher(topic).matches()) {
            return Optional.of("the topic is one of this worker's Connect topics or the monitor's own");
        }
        return Optional.empty();
    }

    /**
     * The topics to monitor from these groups' dead-letter topics (group id -> topic): topic -> the first group
     * naming it, refused ones left out, at most {@value #MAX_TOPICS}.
     */
    SortedMap<String, String> select(Map<String, String> topicByGroup) {
        SortedMap<String, String> groupByTopic = new TreeMap<>();
        new TreeMap<>(topicByGroup).forEach((group, topic) -> {
            if (refusal(group, topic).isEmpty()) {
                groupByTopic.putIfAbsent(topic, group);
            }
        });
        while (groupByTopic.size() > MAX_TOPICS) {
            groupByTopic.remove(groupByTopic.lastKey());
        }
        return groupByTopic;
    }
}
