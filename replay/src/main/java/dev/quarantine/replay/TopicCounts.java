package dev.quarantine.replay;

import java.util.Map;
import java.util.TreeMap;

/**
 * Dead letters counted per topic for a dry run, for at most {@value #MAX_TOPICS} topics: a dead letter's headers
 * choose its topic, so a hostile dead-letter topic can name as many as it likes. Beyond the limit they are counted
 * under {@value #OTHER_TOPICS}, which no Kafka topic can be named (spaces and parentheses are not legal there).
 */
final class TopicCounts {

    static final int MAX_TOPICS = 1_000;
    static final String OTHER_TOPICS = "(other topics)";

    private final Map<String, Long> counts = new TreeMap<>();

    void add(String topic) {
        String key = counts.containsKey(topic) || counts.size() < MAX_TOPICS ? topic : OTHER_TOPICS;
        counts.merge(key, 1L, Long::sum);
    }

    Map<String, Long> asMap() {
        return counts;
    }
}
