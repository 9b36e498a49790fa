package dev.quarantine.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the end-to-end runs on real workers read from the machine and the build: one place for each. */
final class RunInputs {

    private RunInputs() {
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

    /** The 1, 5 and 15 minute load averages, as printed beside each figure. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().replaceAll(" \\S+ \\S+$", "");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
