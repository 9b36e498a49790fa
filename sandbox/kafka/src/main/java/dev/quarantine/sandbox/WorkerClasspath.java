package dev.quarantine.sandbox;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.simple.SimpleLogger;

/**
 * The classpath of a sandbox Connect worker: Kafka's jars as given (connect-runtime and its dependencies, never the
 * plugins, which come through plugin.path), plus this module's classes for {@link ConnectWorkerMain} and an slf4j
 * binding when the given classpath has none.
 */
final class WorkerClasspath {

    private WorkerClasspath() {
    }

    /** Reads a classpath file as maven-dependency-plugin's build-classpath writes it. */
    static List<Path> read(Path file) {
        try {
            List<Path> paths = new ArrayList<>();
            for (String entry : Files.readString(file).trim().split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    paths.add(Path.of(entry.trim()));
                }
            }
            return paths;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the worker classpath file " + file, e);
        }
    }

    /** {@code classpath} with the entry point and a logging binding, as the value of {@code -cp}. */
    static String of(List<Path> classpath) {
        List<String> entries = new ArrayList<>();
        classpath.forEach(p -> entries.add(p.toString()));
        entries.add(codeSource(ConnectWorkerMain.class));
        if (classpath.stream().noneMatch(p -> p.getFileName().toString()
                .matches("(slf4j-simple|log4j-slf4j2-impl|logback-classic).*"))) {
            entries.add(codeSource(SimpleLogger.class));
        }
        return String.join(File.pathSeparator, entries);
    }

    /** The jar (or class folder) {@code type} was loaded from: the entry of a child's classpath that holds it. */
    static String codeSource(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the jar of " + type.getName(), e);
        }
    }
}
