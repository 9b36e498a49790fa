package dev.quarantine.connect;

import java.nio.file.Path;
import java.util.List;

import dev.quarantine.sandbox.LocalConnect;

/**
 * What this module's build made for the tests that start workers, where failsafe says it is (the defaults are those
 * of a run in the module's folder): the plugin folder for {@code plugin.path} and the workers' classpaths, which hold
 * Kafka's jars and never the plugin.
 */
public final class BuiltPlugin {

    /** The folder of the unpacked plugin archive: a ready {@code plugin.path}. */
    public static final Path PLUGIN_PATH = Path.of(System.getProperty("quarantine.plugin.path", "target/plugin"));

    private BuiltPlugin() {
    }

    /** Connect's runtime and its dependencies, kafka-streams among them (as the Apache Kafka distribution has it). */
    public static List<Path> workerClasspath() {
        return LocalConnect.readClasspath(Path.of(System.getProperty("quarantine.worker.classpath",
                "target/connect-worker-classpath.txt")));
    }

    /** {@link #workerClasspath()} without kafka-streams. */
    public static List<Path> workerClasspathWithoutStreams() {
        return LocalConnect.readClasspath(Path.of(System.getProperty("quarantine.worker.classpath.without.streams",
                "target/connect-worker-classpath-without-streams.txt")));
    }
}
