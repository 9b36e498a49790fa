package dev.quarantine.connect.rest;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import dev.quarantine.connect.rest.http.KnownHosts;

/** The validators of {@link MonitorConfig}'s settings that Kafka's {@link ConfigDef} does not have. */
final class MonitorValidators {

    private MonitorValidators() {
    }

    /**
     * Accepts no secret, or one of at least {@link MonitorConfig#PEER_SECRET_MIN_CHARS} characters whose length times
     * log2 of its number of different characters is at least {@link MonitorConfig#PEER_SECRET_MIN_BITS}: an upper
     * bound of its entropy that random bytes in base64 or hex always reach (32 bytes: 44 characters of some 30
     * different ones, or 64 of 16) and that a phrase or a repeated pattern does not. One captured request is enough
     * to guess a weak secret offline, so it is refused at start.
     */
    static final class Secret implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value == null) {
                return;
            }
            String secret = ((Password) value).value();
            if (secret.length() < MonitorConfig.PEER_SECRET_MIN_CHARS
                    || bits(secret) < MonitorConfig.PEER_SECRET_MIN_BITS) {
                // the value is a secret: never in the message
                throw new ConfigException(name + " is too weak: use 32 random bytes, base64 or hex (for example the"
                        + " output of openssl rand -base64 32); at least " + MonitorConfig.PEER_SECRET_MIN_CHARS
                        + " characters, and its length times log2 of its number of different characters at least "
                        + MonitorConfig.PEER_SECRET_MIN_BITS);
            }
        }

        /** The secret's length times log2 of its number of different characters. */
        static double bits(String secret) {
            long distinct = secret.chars().distinct().count();
            return distinct < 2 ? 0 : secret.length() * Math.log(distinct) / Math.log(2);
        }

        @Override
        public String toString() {
            return "null, or 32 random bytes in base64 or hex (at least " + MonitorConfig.PEER_SECRET_MIN_CHARS
                    + " characters, length x log2(different characters) >= " + MonitorConfig.PEER_SECRET_MIN_BITS + ")";
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

    /** Accepts a list of host names, each a name or {@code *.} and a domain ({@link KnownHosts#ENTRY}). */
    static final class HostNames implements ConfigDef.Validator {
        @Override
        @SuppressWarnings("unchecked")
        public void ensureValid(String name, Object value) {
            if (value == null) {
                throw new ConfigException(name, null, "must be a list of host names, or empty");
            }
            for (String entry : (List<String>) value) {
                if (!entry.isBlank() && !KnownHosts.ENTRY.matcher(entry.trim()).matches()) {
                    throw new ConfigException(name, value, "'" + entry + "' is not a host name or *.domain (no"
                            + " scheme, port or path; a domain of two labels at least, not *.com)");
                }
            }
        }

        @Override
        public String toString() {
            return "a list of host names, each a name (connect.example.com) or *. and a domain of two labels at least"
                    + " (*.example.com)";
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
