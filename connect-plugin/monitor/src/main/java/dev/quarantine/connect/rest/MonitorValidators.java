package dev.quarantine.connect.rest;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/** The validators of {@link MonitorConfig}'s settings that Kafka's {@link ConfigDef} does not have. */
final class MonitorValidators {

    private MonitorValidators() {
    }

    /** Accepts no secret, or one of at least {@link #MonitorConfig.PEER_SECRET_MIN_CHARS} characters. */
    static final class Secret implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value != null && ((Password) value).value().length() < MonitorConfig.PEER_SECRET_MIN_CHARS) {
                // the value is a secret: never in the message
                throw new ConfigException(name + " must have at least " + MonitorConfig.PEER_SECRET_MIN_CHARS + " characters");
            }
        }

        @Override
        public String toString() {
            return "null, or a secret of at least " + MonitorConfig.PEER_SECRET_MIN_CHARS + " characters";
        }
    }

    /** Accepts an empty string or a valid Java regular expression. */
    static final class Regex implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value == null) {
                throw new ConfigException(name, null, "must be a regular expression or empty");
            }
            try {
                Pattern.compile(((String) value).trim());
            } catch (PatternSyntaxException e) {
                throw new ConfigException(name, value, "not a valid Java regular expression: " + e.getDescription());
            }
        }

        @Override
        public String toString() {
            return "a Java regular expression, or empty";
        }
    }
}
