package dev.quarantine.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/** What the end-to-end runs on real workers read from the machine and the build: one place for each. */
final class RunInputs {

    /** Where the archive build leaves the plugin folder, from the repository root. */
    static final String PLUGIN_PATH_DEFAULT = "connect-plugin/archive/target/plugin";

    private RunInputs() {
    }

    /** The built plugin folder: {@code -Dplugin.path}, else the archive build's. */
    static Path pluginPath() {
        return existing("plugin.path", PLUGIN_PATH_DEFAULT);
    }

    /** The Connect worker's classpath as the archive build lists it: {@code -Dworker.classpath}, else its file. */
    static List<Path> workerClasspath() {
        return LocalConnect.readClasspath(existing("worker.classpath",
                "connect-plugin/archive/target/connect-worker-classpath.txt"));
    }

    /** The port {@code kafka} listens on, to find the broker's JVM by. */
    static int brokerPort(LocalKafka kafka) {
        String servers = kafka.bootstrapServers();
        return Integer.parseInt(servers.substring(servers.lastIndexOf(':') + 1));
    }

    /**
     * The file or folder named by system property {@code property} (else {@code fallback}, from the repository root);
     * fails saying how to build it.
     */
    static Path existing(String property, String fallback) {
        return checked(System.getProperty(property, fallback), property);
    }

    /** {@code path}, one of the values of system property {@code property}; fails saying how to build it. */
    static Path checked(String value, String property) {
        Path path = Path.of(value);
        if (!Files.exists(path)) {
            throw new IllegalStateException(path.toAbsolutePath() + " does not exist: run from the repository root"
                    + " after `mvn -B -q -pl connect-plugin/archive,benchmarks -am package -DskipTests`, or set -D"
                    + property);
        }
        return path;
    }

    /** A comma-separated list of whole numbers in {@code -D<property>}, such as partition counts. */
    static List<Integer> integers(String property, String fallback) {
        return Arrays.stream(System.getProperty(property, fallback).split(",")).map(String::trim)
                .map(Integer::valueOf).toList();
    }

    /** The 1, 5 and 15 minute load averages, as printed beside each figure. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().replaceAll(" \\S+ \\S+$", "");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
