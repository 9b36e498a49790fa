package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The example files under {@code config/} that users copy, read the way their tools read them: a {@code .properties}
 * file as {@link Properties} (Kafka's scripts), a connector's {@code .json} as its {@code "config"} object (Connect's
 * {@code POST /connectors}). Tests parse them against the {@code ConfigDef}s they target.
 */
public final class ExampleConfigs {

    private ExampleConfigs() {
    }

    /** {@code config/<name>}, seen from a module directory. */
    public static Path path(String name) {
        return ProjectFiles.resolve("config/" + name);
    }

    /** The settings of {@code config/<name>}, a properties file; commented lines are not settings. */
    public static Map<String, String> properties(String name) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path(name))) {
            properties.load(reader);
        }
        Map<String, String> settings = new HashMap<>();
        properties.stringPropertyNames().forEach(key -> settings.put(key, properties.getProperty(key)));
        return settings;
    }

    /**
     * The {@code "config"} object of {@code config/<name>}, a connector's JSON as {@code POST /connectors} takes it,
     * with the connector's {@code "name"} among the settings, as the worker hands them to the connector.
     */
    public static Map<String, String> connectorConfig(String name) throws IOException {
        JsonNode connector = new ObjectMapper().readTree(path(name).toFile());
        Map<String, String> settings = new HashMap<>();
        connector.path("config").fields()
                .forEachRemaining(field -> settings.put(field.getKey(), field.getValue().asText()));
        settings.put("name", connector.path("name").asText());
        return settings;
    }
}
