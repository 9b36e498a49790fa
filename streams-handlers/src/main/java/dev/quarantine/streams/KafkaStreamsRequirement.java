package dev.quarantine.streams;

import java.util.Optional;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.KafkaStreams;

import dev.quarantine.txn.KafkaVersion;

/**
 * The handler and the supplier need kafka-streams 4.2 or later: 4.2 is where a production exception handler can
 * return dead-letter records (KIP-1034). On an older kafka-streams the handler would be loaded but never asked (the
 * older interface's default method answers instead), so enabling either fails at start-up, naming the version needed
 * and the setting. A version that cannot be read is not held against the app.
 */
final class KafkaStreamsRequirement {

    static final int MAJOR = 4;
    static final int MINOR = 2;

    private KafkaStreamsRequirement() {
    }

    /** @throws ConfigException naming {@code setting} when the app's kafka-streams is older than 4.2 */
    static void require(String setting, Class<?> plugin) {
        require(setting, plugin, KafkaVersion.stated(KafkaStreams.class.getClassLoader(), KafkaVersion.STREAMS_FILE));
    }

    static void require(String setting, Class<?> plugin, Optional<String> statedVersion) {
        Optional<KafkaVersion> version = statedVersion.flatMap(KafkaVersion::parse);
        if (version.isPresent() && version.get().isBefore(MAJOR, MINOR)) {
            throw new ConfigException(setting, plugin.getName(), plugin.getSimpleName() + " needs kafka-streams "
                    + MAJOR + "." + MINOR + " or later (where a production exception handler can return dead-letter"
                    + " records); this app runs kafka-streams " + version.get() + ". Upgrade kafka-streams (and"
                    + " kafka-clients) to " + MAJOR + "." + MINOR + " or later, or remove " + setting);
        }
    }
}
