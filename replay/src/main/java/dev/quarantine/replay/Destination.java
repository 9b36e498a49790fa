package dev.quarantine.replay;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import org.apache.kafka.common.config.ConfigException;

import dev.quarantine.txn.TopicNames;

/**
 * Where a replay sends dead letters: {@code original} (where each was going when it failed), {@code source} (the
 * topic it was read from) or a named topic.
 */
public final class Destination {

    /** The kinds of destination. */
    public enum Kind { ORIGINAL, SOURCE, TOPIC }

    public static final String ORIGINAL = "original";
    public static final String SOURCE = "source";

    private final Kind kind;
    private final String topic;

    private Destination(Kind kind, String topic) {
        this.kind = kind;
        this.topic = topic;
    }

    /**
     * {@code original}, {@code source} (either case) or a topic name.
     *
     * @throws ConfigException naming {@code setting} when the value is neither and not a legal topic name
     */
    public static Destination parse(String setting, String value) {
        String trimmed = value == null ? "" : value.trim();
        if (trimmed.toLowerCase(Locale.ROOT).equals(ORIGINAL)) {
            return new Destination(Kind.ORIGINAL, null);
        }
        if (trimmed.toLowerCase(Locale.ROOT).equals(SOURCE)) {
            return new Destination(Kind.SOURCE, null);
        }
        if (!TopicNames.isLegal(trimmed)) {
            throw new ConfigException(setting, value, "must be " + ORIGINAL + ", " + SOURCE + " or a topic name ("
                    + TopicNames.RULE + ")");
        }
        return new Destination(Kind.TOPIC, trimmed);
    }

    public Kind kind() {
        return kind;
    }

    /** The named topic, for {@link Kind#TOPIC}. */
    public Optional<String> topic() {
        return Optional.ofNullable(topic);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Destination d && d.kind == kind && Objects.equals(d.topic, topic);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, topic);
    }

    @Override
    public String toString() {
        return kind == Kind.TOPIC ? topic : kind.name().toLowerCase(Locale.ROOT);
    }
}
