package dev.quarantine.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;

/** The project's own files (docs, example configs) seen from any module directory, however deeply nested. */
public final class ProjectFiles {

    private ProjectFiles() {
    }

    /** {@code relative} under the project root: the nearest directory upwards that holds the parent pom and docs/. */
    public static Path resolve(String relative) {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs")) && Files.isDirectory(dir.resolve("config"))
                    && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir.resolve(relative);
            }
        }
        throw new IllegalStateException("no project root (a directory with pom.xml, docs/ and config/) above " + start);
    }
}
