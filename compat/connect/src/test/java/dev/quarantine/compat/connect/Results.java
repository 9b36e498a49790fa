package dev.quarantine.compat.connect;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What a test saw on a worker version, one line per component, in {@code target/compat-results/connect-<version>
 * .properties}: {@code <component>=<outcome>: <detail>}. bin/compat-matrix turns them into docs/compatibility.md.
 */
final class Results {

    private Results() {
    }

    static synchronized void record(String version, String component, String outcome, String detail) {
        Path file = Path.of(System.getProperty("compat.results.dir", "target/compat-results"))
                .resolve("connect-" + version + ".properties");
        try {
            Files.createDirectories(file.getParent());
            Properties results = new Properties();
            if (Files.exists(file)) {
                try (Reader in = Files.newBufferedReader(file)) {
                    results.load(in);
                }
            }
            results.setProperty(component, outcome + ": " + detail.replace('\n', ' '));
            try (Writer out = Files.newBufferedWriter(file)) {
                results.store(out, "Connect worker " + version);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
    }
}
