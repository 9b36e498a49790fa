package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    /**
     * Sends a POSIX signal ({@code STOP}, {@code CONT}) to a child, as an operator's {@code kill -STOP} would: a
     * stopped process keeps its sockets open but answers nothing, like a JVM in a long GC pause or a frozen host.
     */
    static void signal(Process process, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid()))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not send SIG" + signal + " to " + process.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal, e);
        }
    }

    /** Kills a child with SIGKILL (kill -9), as in a crash, and waits until it is gone. */
    static void killNow(Process process, String what) {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(what + " (pid " + process.pid() + ") did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + what, e);
        }
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
