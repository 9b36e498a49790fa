package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** What the sandbox's child JVMs (broker, Connect worker) and the code that starts them share. */
final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * In the child: halts the JVM as soon as its standard input closes, so it never outlives the JVM that started
     * it, even when that one is killed.
     */
    static void exitWhenParentGoes(InputStream parentPipe) {
        Thread watchdog = new Thread(() -> {
            try {
                while (parentPipe.read() >= 0) {
                    // the parent writes nothing; end of stream means it is gone
                }
            } catch (IOException e) {
                // the pipe broke: the parent is gone as well
            }
            Runtime.getRuntime().halt(0);
        }, "sandbox-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** The last {@code lines} lines of a child's log, for error messages. */
    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Deletes a child's working directory; best effort, it lives under the temp dir. */
    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort
        }
    }
}
