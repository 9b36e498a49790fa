package dev.quarantine.connect.rest;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/**
 * Workers behind Kafka's {@code BasicAuthSecurityRestExtension}, as the monitor and replay tests run them: its jar
 * and our 4.4 shim on the worker's classpath, one user from a JAAS file.
 */
public final class BasicAuthWorkers {

    public static final String USER = "operator";
    public static final String PASSWORD = "s3cret";
    /** The worker setting that installs the monitor and basic authentication. */
    public static final String REST_EXTENSIONS = DeadLetterRestExtension.class.getName() + ","
            + BasicAuthOnKafka44.class.getName();

    private BasicAuthWorkers() {
    }

    /** {@code workerClasspath} plus the basic-auth extension's jar and the shim (target/test-classes). */
    public static List<Path> classpath(List<Path> workerClasspath) {
        List<Path> classpath = new ArrayList<>(workerClasspath);
        classpath.add(jarOf(BasicAuthSecurityRestExtension.class));
        classpath.add(jarOf(BasicAuthOnKafka44.class));
        return classpath;
    }

    /**
     * A worker (not started) of the Connect cluster {@code <prefix>-connect}, its internal topics named after
     * {@code prefix}, loading the built plugin, with the monitor and basic authentication installed and signed in as
     * {@link #USER}; {@code settings} added.
     */
    public static LocalConnect monitoring(LocalKafka kafka, String prefix, Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(Map.of(
                "group.id", prefix + "-connect",
                "config.storage.topic", prefix + "-configs",
                "offset.storage.topic", prefix + "-offsets",
                "status.storage.topic", prefix + "-status",
                "rest.extension.classes", REST_EXTENSIONS));
        all.putAll(settings);
        return signedIn(LocalConnect.create(kafka, BuiltPlugin.PLUGIN_PATH, classpath(BuiltPlugin.workerClasspath()),
                all));
    }

    /** {@code worker} with the JAAS file of {@link #USER} in its JVM and its REST calls signed in as that user. */
    public static LocalConnect signedIn(LocalConnect worker) {
        return signedIn(worker, Map.of(USER, PASSWORD));
    }

    /**
     * {@code worker} with a JAAS file of {@code users} (name to password) in its JVM and its REST calls signed in as
     * {@link #USER}, one of them.
     */
    public static LocalConnect signedIn(LocalConnect worker, Map<String, String> users) {
        return worker.withJvmOptions("-Djava.security.auth.login.config=" + jaasConfig(users))
                .withBasicAuth(USER, users.get(USER));
    }

    private static Path jaasConfig(Map<String, String> users) {
        StringBuilder lines = new StringBuilder();
        users.forEach((user, password) -> lines.append(user).append('=').append(password).append('\n'));
        try {
            Path dir = Files.createTempDirectory("basic-auth-workers");
            Path file = Files.writeString(dir.resolve("users.properties"), lines);
            return Files.writeString(dir.resolve("connect.jaas"), "KafkaConnect {\n"
                    + "  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule required\n"
                    + "  file=\"" + file + "\";\n};\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Path jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
