package dev.quarantine.replay;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import dev.quarantine.txn.TopicNames;

/** The validators of {@link ReplayConfig}; each {@code toString()} is the legal values its docs list. */
final class ConfigValidators {

    private static final Pattern REPLAY_ID = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

    private ConfigValidators() {
    }

    static ConfigDef.Validator topic(boolean emptyAllowed) {
        return validator("a topic name (" + TopicNames.RULE + ")" + (emptyAllowed ? " or empty" : ""),
                value -> topicProblem(emptyAllowed, value));
    }

    private static String topicProblem(boolean emptyAllowed, Object value) {
        String text = value == null ? "" : value.toString().trim();
        return (emptyAllowed && text.isEmpty()) || TopicNames.isLegal(text) ? null : "not a legal topic name ("
                + TopicNames.RULE + ")";
    }

    /**
     * A topic name starting with {@code prefix} and ending with {@code suffix}: the reserved forms of replay progress
     * and parking topics, which {@link DestinationRule} refuses as destinations.
     */
    static ConfigDef.Validator reservedTopic(boolean emptyAllowed, String prefix, String suffix) {
        String form = (prefix.isEmpty() ? "" : "starting with '" + prefix + "'")
                + (suffix.isEmpty() ? "" : "ending with '" + suffix + "'");
        return validator("a topic name " + form + (emptyAllowed ? ", or empty" : ""), value -> {
            String text = value == null ? "" : value.toString().trim();
            if (topicProblem(emptyAllowed, value) != null) {
                return topicProblem(emptyAllowed, value);
            }
            return (emptyAllowed && text.isEmpty()) || (text.startsWith(prefix) && text.endsWith(suffix)) ? null
                    : "must be a topic name " + form + ": no replay writes a dead letter to a topic named so";
        });
    }

    /** A speed limit: 0 (no limit) or a positive whole number. */
    static ConfigDef.Validator noneOrPositive() {
        return validator("0 (no limit) or more", value ->
                value instanceof Long limit && limit >= 0 ? null : "must be 0 (no limit) or more");
    }

    static ConfigDef.Validator nonEmptyList() {
        return validator("a non-empty list of host:port", value ->
                value instanceof List<?> list && !list.isEmpty() ? null : "must name at least one host:port");
    }

    static ConfigDef.Validator replayId() {
        return validator("1 to 200 of a-z, A-Z, 0-9, '.', '_' and '-'", value ->
                value != null && REPLAY_ID.matcher(value.toString()).matches() ? null
                        : "must be 1 to 200 of a-z, A-Z, 0-9, '.', '_' and '-'");
    }

    static ConfigDef.Validator destination() {
        return validator(Destination.ORIGINAL + ", " + Destination.SOURCE + " or a topic name", value -> {
            try {
                Destination.parse(ReplayConfig.DESTINATION_CONFIG, value == null ? "" : value.toString());
                return null;
            } catch (ConfigException e) {
                return "must be " + Destination.ORIGINAL + ", " + Destination.SOURCE + " or a topic name ("
                        + TopicNames.RULE + ")";
            }
        });
    }

    static ConfigDef.Validator regex() {
        return validator("a Java regular expression, or empty", value -> {
            try {
                Pattern.compile(value == null ? "" : value.toString());
                return null;
            } catch (PatternSyntaxException e) {
                return "not a Java regular expression: " + e.getDescription() + " at index " + e.getIndex();
            }
        });
    }

    static ConfigDef.Validator instant() {
        return validator("an ISO-8601 instant such as 2026-12-01T03:00:00Z, or empty", value -> {
            String text = value == null ? "" : value.toString().trim();
            try {
                if (!text.isEmpty()) {
                    Instant.parse(text);
                }
                return null;
            } catch (DateTimeParseException e) {
                return "not an ISO-8601 instant such as 2026-12-01T03:00:00Z";
            }
        });
    }

    static ConfigDef.Validator ranges() {
        return validator("a list of " + Positions.RANGE_FORMAT, value -> {
            try {
                ((List<?>) value).forEach(range -> Positions.range(range.toString()));
                return null;
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
    }

    static ConfigDef.Validator untilOffsets() {
        return validator("a list of " + UntilOffsets.FORMAT + ", one per partition", value -> {
            try {
                UntilOffsets.parse(((List<?>) value).stream().map(Object::toString).toList());
                return null;
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
    }

    /** A validator whose {@code toString()} (the docs' "Valid Values") is {@code legal}. */
    static ConfigDef.Validator validator(String legal, Function<Object, String> problem) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                String message = problem.apply(value);
                if (message != null) {
                    throw new ConfigException(name, value, message);
                }
            }

            @Override
            public String toString() {
                return legal;
            }
        };
    }
}
