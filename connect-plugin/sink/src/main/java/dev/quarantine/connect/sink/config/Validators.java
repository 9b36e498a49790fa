package dev.quarantine.connect.sink.config;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import dev.quarantine.txn.TopicNames;

/** Validators of single settings; each says in {@code toString()} what it accepts, for the generated docs. */
final class Validators {

    /** A {@code target.topic.format}: contains {@code ${topic}}, and yields legal topic names. */
    static final ConfigDef.Validator TOPIC_FORMAT = new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
            String format = (String) value;
            if (format == null || !format.contains(TransactionalSinkConfig.TOPIC_PLACEHOLDER)) {
                throw new ConfigException(name, value, "must contain the placeholder "
                        + TransactionalSinkConfig.TOPIC_PLACEHOLDER + ", which is replaced by the record's topic");
            }
            String sample = new TopicFormat(format).targetTopic("t");
            if (!TopicNames.isLegal(sample)) {
                throw new ConfigException(name, value, "does not yield a legal topic name (" + TopicNames.RULE + ")");
            }
        }

        @Override
        public String toString() {
            return "text with " + TransactionalSinkConfig.TOPIC_PLACEHOLDER + ", yielding legal topic names";
        }
    };

    /** Empty, or a legal topic name. */
    static final ConfigDef.Validator OPTIONAL_TOPIC_NAME = new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
            String topic = (String) value;
            if (topic == null || topic.isBlank()) {
                return;
            }
            if (!TopicNames.isLegal(topic.trim())) {
                throw new ConfigException(name, value, "is not a legal topic name (" + TopicNames.RULE + ")");
            }
        }

        @Override
        public String toString() {
            return "empty, or a topic name ([a-zA-Z0-9._-], at most 249 characters)";
        }
    };

    /** Empty, or a prefix made of topic-name characters (it names transactional ids and groups). */
    static final ConfigDef.Validator OPTIONAL_ID_PREFIX = new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
            String prefix = (String) value;
            if (prefix != null && !prefix.isEmpty() && !prefix.matches("[a-zA-Z0-9._-]{1,200}")) {
                throw new ConfigException(name, value, "may only contain [a-zA-Z0-9._-], at most 200 characters");
            }
        }

        @Override
        public String toString() {
            return "empty (the connector's name), or [a-zA-Z0-9._-]{1,200}";
        }
    };

    /** -1 (decided elsewhere, see the setting), or at least 1: partitions of a topic to create. */
    static final ConfigDef.Validator PARTITIONS = minusOneOrPositive("partitions");

    /** -1 (the target cluster's default.replication.factor), or at least 1. */
    static final ConfigDef.Validator REPLICATION_FACTOR = minusOneOrPositive("replicas");

    private Validators() {
    }

    private static ConfigDef.Validator minusOneOrPositive(String what) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                long number = ((Number) value).longValue();
                if (number != -1 && number < 1) {
                    throw new ConfigException(name, value, "must be -1 (the default) or at least 1 " + what);
                }
            }

            @Override
            public String toString() {
                return "-1, or at least 1";
            }
        };
    }

    /** A class implementing {@code type}. */
    static ConfigDef.Validator implementing(Class<?> type) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value instanceof Class<?> cls && !type.isAssignableFrom(cls)) {
                    throw new ConfigException(name, cls.getName(), "must implement " + type.getName());
                }
            }

            @Override
            public String toString() {
                return "a class implementing " + type.getName();
            }
        };
    }
}
