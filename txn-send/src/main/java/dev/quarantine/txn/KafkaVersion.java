package dev.quarantine.txn;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.Properties;

/**
 * The version of a Kafka jar in use, as the jar states it in its version file ({@code kafka/kafka-version.properties}
 * in kafka-clients, {@code kafka/kafka-streams-version.properties} in kafka-streams): read the same way on every Kafka
 * version (the classes that read it moved between versions). The plugin's parts use it to refuse, with one clear
 * message naming the version needed, a Kafka older than they work with.
 *
 * @param major the major version
 * @param minor the minor version
 * @param text  the version as the jar states it, for messages ({@code 4.2.1})
 */
public record KafkaVersion(int major, int minor, String text) {

    /** kafka-clients' version file. */
    public static final String CLIENTS_FILE = "kafka/kafka-version.properties";
    /** kafka-streams' version file. */
    public static final String STREAMS_FILE = "kafka/kafka-streams-version.properties";

    /** {@code 4.2.1}, {@code 4.3.0-SNAPSHOT}; empty when {@code text} is not a version ({@code unknown}). */
    public static Optional<KafkaVersion> parse(String text) {
        String[] parts = text.trim().split("[.-]");
        try {
            return Optional.of(new KafkaVersion(Integer.parseInt(parts[0]),
                    parts.length > 1 ? Integer.parseInt(parts[1]) : 0, text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The version that {@code versionFile}, seen through {@code loader}, states; empty when there is none. */
    public static Optional<String> stated(ClassLoader loader, String versionFile) {
        try (InputStream in = loader.getResourceAsStream(versionFile)) {
            if (in == null) {
                return Optional.empty();
            }
            Properties file = new Properties();
            file.load(in);
            return Optional.ofNullable(file.getProperty("version"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether this version is older than {@code major.minor}. */
    public boolean isBefore(int major, int minor) {
        return this.major != major ? this.major < major : this.minor < minor;
    }

    /** Whether this version is newer than {@code other} (major and minor). */
    public boolean isAfter(KafkaVersion other) {
        return other.isBefore(major, minor);
    }

    @Override
    public String toString() {
        return text;
    }
}
