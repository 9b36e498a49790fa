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

    /**
     * Accepts no secret, or one of at least {@link MonitorConfig#PEER_SECRET_MIN_CHARS} characters of which at least
     * {@link MonitorConfig#PEER_SECRET_MIN_DISTINCT_CHARS} differ: short enough to guess offline from one captured
     * request is refused.
     */
    static final class Secret implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value == null) {
                return;
            }
            String secret = ((Password) value).value();
            if (secret.length() < MonitorConfig.PEER_SECRET_MIN_CHARS
                    || secret.chars().distinct().count() < MonitorConfig.PEER_SECRET_MIN_DISTINCT_CHARS) {
                // the value is a secret: never in the message
                throw new ConfigException(name + " must have at least " + MonitorConfig.PEER_SECRET_MIN_CHARS
                        + " characters, of at least " + MonitorConfig.PEER_SECRET_MIN_DISTINCT_CHARS + " different"
                        + " ones (for example the output of openssl rand -base64 32)");
            }
        }

        @Override
        public String toString() {
            return "null, or a secret of at least " + MonitorConfig.PEER_SECRET_MIN_CHARS + " characters, of at least "
                    + MonitorConfig.PEER_SECRET_MIN_DISTINCT_CHARS + " different ones";
        }
    }

    /** Accepts an empty string, or a host name or IP address without port or scheme. */
    static final class BindAddress implements ConfigDef.Validator {
        private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:%-]{1,255}");

        @Override
        public void ensureValid(String name, Object value) {
            String address = value == null ? null : ((String) value).trim();
            if (address == null || !(address.isEmpty() || HOST.matcher(address).matches())
                    || address.chars().filter(c -> c == ':').count() == 1) {
                throw new ConfigException(name, value, "must be empty, a host name or an IP address (without port)");
            }
        }

        @Override
        public String toString() {
            return "empty, a host name or an IP address (0.0.0.0: every interface)";
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
