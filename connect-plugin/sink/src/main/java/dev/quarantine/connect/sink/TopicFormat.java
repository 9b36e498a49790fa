package dev.quarantine.connect.sink;

/** {@code target.topic.format}: the target topic of a record's topic. */
final class TopicFormat {

    private final String format;

    TopicFormat(String format) {
        this.format = format;
    }

    String targetTopic(String topic) {
        return format.replace(TransactionalSinkConfig.TOPIC_PLACEHOLDER, topic);
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
