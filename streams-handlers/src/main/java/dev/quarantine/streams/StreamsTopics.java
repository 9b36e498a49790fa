package dev.quarantine.streams;

import java.util.Objects;
import java.util.Optional;

/**
 * Tells a Streams app's internal topics from its outputs, for the handler and the supplier's producers.
 *
 * <p>Kafka Streams names every internal topic it creates {@code <application.id>-<name><suffix>}: {@code -changelog}
 * for a store's changelog, {@code -repartition} for a repartition topic and {@code -topic} for a foreign-key join's
 * subscription topics (Kafka Streams 4.2 to 4.4). A topic is internal only when it carries both the app's prefix and
 * one of these suffixes: another app's changelog, or a topic that merely ends like one, is an output. An output topic
 * that the user named like an internal topic of this very app is taken for one, which is the safe side (it fails
 * instead of being dead-lettered). A changelog write is also known for certain without its name: Kafka Streams
 * sends it with no processor node (its change logger, not a sink, writes it).
 */
final class StreamsTopics {

    private static final String CHANGELOG_SUFFIX = "-changelog";
    private static final String REPARTITION_SUFFIX = "-repartition";
    private static final String SUBSCRIPTION_SUFFIX = "-topic";

    private final String prefix;
    private final Optional<String> deadLetterTopic;

    StreamsTopics(String applicationId, Optional<String> deadLetterTopic) {
        this.prefix = Objects.requireNonNull(applicationId, "applicationId") + "-";
        this.deadLetterTopic = Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
    }

    /** The kind of {@code topic}, known by its name alone. */
    TopicKind kind(String topic) {
        if (deadLetterTopic.isPresent() && deadLetterTopic.get().equals(topic)) {
            return TopicKind.DEAD_LETTER;
        }
        if (topic == null || !topic.startsWith(prefix) || topic.length() == prefix.length()) {
            return TopicKind.OUTPUT;
        }
        if (topic.endsWith(CHANGELOG_SUFFIX)) {
            return TopicKind.CHANGELOG;
        }
        if (topic.endsWith(REPARTITION_SUFFIX) || topic.endsWith(SUBSCRIPTION_SUFFIX)) {
            return TopicKind.REPARTITION;
        }
        return TopicKind.OUTPUT;
    }

    /**
     * The kind of {@code topic} written by a processor node, or by a store's change logger when
     * {@code processorNodeId} is null.
     */
    TopicKind kind(String topic, String processorNodeId) {
        TopicKind byName = kind(topic);
        return processorNodeId == null && byName != TopicKind.DEAD_LETTER ? TopicKind.CHANGELOG : byName;
    }

    Optional<String> deadLetterTopic() {
        return deadLetterTopic;
    }
}
