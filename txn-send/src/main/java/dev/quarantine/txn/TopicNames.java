package dev.quarantine.txn;

import java.util.Optional;

import org.apache.kafka.common.errors.InvalidTopicException;

/**
 * Kafka's rules for a legal topic name, checked without a round trip: the one place of this project that knows them
 * (the producer's record checks, the sink's settings, the monitor's endpoints).
 */
public final class TopicNames {

    static final int MAX_LENGTH = 249;

    /** The rule in words, for messages that name a setting or a parameter. */
    public static final String RULE = "1 to " + MAX_LENGTH + " of a-z, A-Z, 0-9, '.', '_' and '-', but not '.' or '..'";

    private TopicNames() {
    }

    /** Whether Kafka accepts {@code topic} as a topic name. */
    public static boolean isLegal(String topic) {
        return problem(topic).isEmpty();
    }

    static void validate(String topic) {
        Optional<String> problem = problem(topic);
        if (problem.isPresent()) {
            throw new InvalidTopicException(problem.get());
        }
    }

    private static Optional<String> problem(String topic) {
        if (topic.isEmpty()) {
            return Optional.of("Invalid topic name: the name is empty");
        }
        if (topic.equals(".") || topic.equals("..")) {
            return Optional.of("Invalid topic name '" + topic + "': '.' and '..' are not allowed");
        }
        if (topic.length() > MAX_LENGTH) {
            return Optional.of("Invalid topic name: longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                return Optional.of("Invalid topic name '" + topic
                        + "': only ASCII letters, digits, '.', '_' and '-' are allowed");
            }
        }
        return Optional.empty();
    }
}
