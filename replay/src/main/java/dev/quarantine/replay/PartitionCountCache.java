package dev.quarantine.replay;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The partition counts of destination topics, asked once per topic for the life of a replay (a topic may gain
 * partitions meanwhile: a dead letter naming a new one is then counted unroutable, never written to a wrong one).
 * Unknown or unauthorized topics count as unknown: the producer's own checks decide for them. At most
 * {@value #MAX_TOPICS} topics are remembered, the least recently asked forgotten first.
 */
final class PartitionCountCache implements RecordPlan.PartitionCounts {

    private final Admin admin;
    private final Duration timeout;
    /** Topics remembered at most: a dead letter's headers name the topic, so a hostile topic names many. */
    static final int MAX_TOPICS = 1_000;

    private final Map<String, OptionalInt> counts = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, OptionalInt> eldest) {
            return size() > MAX_TOPICS; // the least recently asked is asked again if it comes back
        }
    };

    PartitionCountCache(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    @Override
    public OptionalInt of(String topic) {
        OptionalInt known = counts.get(topic);
        if (known == null) {
            known = describe(topic);
            counts.put(topic, known);
        }
        return known;
    }

    private OptionalInt describe(String topic) {
        try {
            Map<String, TopicDescription> descriptions = ReplayClients.await(
                    admin.describeTopics(List.of(topic)).allTopicNames(), timeout, "describe topic " + topic);
            return OptionalInt.of(descriptions.get(topic).partitions().size());
        } catch (UnknownTopicOrPartitionException | TopicAuthorizationException e) {
            return OptionalInt.empty();
        } catch (KafkaException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException
                    || e.getCause() instanceof TopicAuthorizationException) {
                return OptionalInt.empty();
            }
            throw e;
        }
    }
}
