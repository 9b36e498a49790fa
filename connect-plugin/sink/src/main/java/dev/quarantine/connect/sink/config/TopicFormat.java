package dev.quarantine.connect.sink.config;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code target.topic.format}: the target topic of a record's topic. Asked several times for every record (its
 * send, its conversion, its dead letter), so each topic's answer is kept: a task sees few distinct topics.
 */
public final class TopicFormat {

    private final String format;
    private final Map<String, String> targets = new ConcurrentHashMap<>();

    public TopicFormat(String format) {
        this.format = format;
    }

    public String targetTopic(String topic) {
        return targets.computeIfAbsent(topic, t -> format.replace(TransactionalSinkConfig.TOPIC_PLACEHOLDER, t));
    }

    /** Whether every topic keeps its name. */
    boolean isIdentity() {
        return format.equals(TransactionalSinkConfig.TOPIC_PLACEHOLDER);
    }

    @Override
    public String toString() {
        return format;
    }
}
