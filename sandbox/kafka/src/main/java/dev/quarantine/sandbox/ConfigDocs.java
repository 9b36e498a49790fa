package dev.quarantine.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.kafka.common.config.ConfigDef;

/**
 * The one check that a committed config doc under {@code docs/config/} is the one its {@code ConfigDef} generates
 * ({@code toEnrichedRst()}). Run a test that calls it with {@code -Dquarantine.docs.write=true} to regenerate the doc.
 */
public final class ConfigDocs {

    /** The system property that makes {@link #assertCurrent} write the doc before it compares. */
    public static final String WRITE_PROPERTY = "quarantine.docs.write";

    private ConfigDocs() {
    }

    /**
     * Fails when {@code docs/config/<docName>} (seen from a module directory) differs from what {@code configDef}
     * generates; {@code testClass} names the test to run with {@value #WRITE_PROPERTY} in the message.
     */
    public static void assertCurrent(ConfigDef configDef, String docName, Class<?> testClass) throws IOException {
        Path doc = ProjectFiles.resolve("docs/config/" + docName);
        String generated = configDef.toEnrichedRst();
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            Files.createDirectories(doc.getParent());
            Files.writeString(doc, generated);
        }
        String fix = "docs/config/" + docName + " is stale: run `mvn -pl <module> test -Dtest="
                + testClass.getSimpleName() + " -D" + WRITE_PROPERTY + "=true`";
        assertTrue(Files.exists(doc), fix);
        assertEquals(generated, Files.readString(doc), fix);
    }
}
