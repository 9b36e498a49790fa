package dev.quarantine.txn;

import org.apache.kafka.common.errors.InvalidTopicException;

/** Kafka's rules for a legal topic name, checked without a round trip. */
final class TopicNames {

    static final int MAX_LENGTH = 249;

    private TopicNames() {
    }

    static void validate(String topic) {
        if (topic.isEmpty()) {
            throw new InvalidTopicException("Invalid topic name: the name is empty");
        }
        if (topic.equals(".") || topic.equals("..")) {
            throw new InvalidTopicException("Invalid topic name '" + topic + "': '.' and '..' are not allowed");
        }
        if (topic.length() > MAX_LENGTH) {
            throw new InvalidTopicException("Invalid topic name: longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                throw new InvalidTopicException("Invalid topic name '" + topic
                        + "': only ASCII letters, digits, '.', '_' and '-' are allowed");
            }
        }
    }
}
