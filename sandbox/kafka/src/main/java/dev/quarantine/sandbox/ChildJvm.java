package dev.quarantine.sandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One child JVM of the sandbox (the broker, a Connect worker): its working directory, its log (stdout and stderr of
 * every start, appended), and its lifecycle: launch, kill -9, SIGSTOP/SIGCONT, SIGTERM, and close, which kills it and
 * deletes the directory (kept when the system property {@code sandbox.keep} is true). A JVM shutdown hook closes it
 * too, and the child exits by itself when its parent dies ({@link #exitWhenParentGoes}). The children not closed yet
 * are listed by {@link #open()}, so that a failing test can name their logs ({@link SandboxLogsOnFailure}).
 */
final class ChildJvm implements AutoCloseable {

    /**
     * JVM options every child gets, such as the build's C1-only JIT and serial GC: a test's brokers and workers live
     * for seconds to minutes, where C2's compilations cost more CPU than they save.
     */
    static final String JVM_OPTIONS_PROPERTY = "sandbox.jvm.options";

    private static final Set<ChildJvm> OPEN = ConcurrentHashMap.newKeySet();

    private final String what;
    private final Path workDir;
    private final Path log;
    private Process process;
    private Thread shutdownHook;
    /** The class archive this start dumps once it answers ({@link #answering()}), or null. */
    private ClassArchive dumps;

    private ChildJvm(String what, Path workDir, String logName) {
        this.what = what;
        this.workDir = workDir;
        this.log = workDir.resolve(logName);
    }

    /** A child named {@code what} in messages ("the local Kafka broker"), in a new temporary directory. */
    static ChildJvm inTempDir(String what, String dirPrefix, String logName) {
        try {
            ChildJvm child = new ChildJvm(what, Files.createTempDirectory(dirPrefix), logName);
            OPEN.add(child);
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("could not create the directory of " + what, e);
        }
    }

    /** The children of this JVM created and not closed yet, running or not (a killed one keeps its log). */
    static List<ChildJvm> open() {
        return List.copyOf(OPEN);
    }

    /** What the child is, in messages: "the local Kafka broker", "the Connect worker 2". */
    String what() {
        return what;
    }

    Path workDir() {
        return workDir;
    }

    Path log() {
        return log;
    }

    /** Writes {@code props} as a properties file into the working directory; returns its path. */
    Path writeProperties(String name, Map<String, String> props) {
        StringBuilder text = new StringBuilder();
        props.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        try {
            return Files.writeString(workDir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + name + " of " + what, e);
        }
    }

    /** Starts the child with {@code command}, its output appended to the log; it may dump its class archive. */
    synchronized void launch(List<String> command) {
        launch(command, true);
    }

    /**
     * As {@link #launch(List)}; {@code mayDump} false when the child must not pause to dump its class archive once it
     * answers (a broker that joins a running cluster: the controller fences it after its session timeout).
     */
    synchronized void launch(List<String> command, boolean mayDump) {
        if (shutdownHook == null) {
            shutdownHook = new Thread(this::destroy, "sandbox-child-shutdown");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        List<String> launched = new ArrayList<>(command);
        dumps = null;
        ClassArchive.of(command).ifPresent(archive -> {
            if (archive.exists()) {
                launched.addAll(1, archive.useOptions());
            } else if (mayDump && archive.claimed()) {
                if (archive.exists()) { // dumped by another child between the look and the claim
                    archive.release();
                    launched.addAll(1, archive.useOptions());
                } else {
                    dumps = archive;
                    launched.addAll(1, archive.dumpOptions());
                }
            }
        });
        try {
            process = new ProcessBuilder(launched).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + what, e);
        }
    }

    /**
     * Called by the owner once the child answers: a child that claimed its class archive at launch dumps it now, and
     * the call returns when the archive is in place ({@link ClassArchive#dumpWhenAnswering}); fails like {@link
     * #requireAlive} if the child died meanwhile.
     */
    synchronized void answering() {
        if (dumps != null) {
            ClassArchive archive = dumps;
            dumps = null;
            archive.dumpWhenAnswering(this);
            requireAlive("dumping its class archive");
        }
    }

    /** Writes {@code line} to the child's standard input (read by {@link #exitWhenParentGoes}). */
    synchronized void tell(String line) {
        try {
            var in = running().getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("could not write to " + what, e);
        }
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    synchronized long pid() {
        return running().pid();
    }

    /** Fails naming the exit code and the log's tail if the child exited while {@code doing}. */
    synchronized void requireAlive(String doing) {
        if (!running().isAlive()) {
            throw failure(what + " exited with code " + process.exitValue() + " while " + doing);
        }
    }

    /** An error with {@code message} and the last lines of the child's log. */
    IllegalStateException failure(String message) {
        return new IllegalStateException(message + "; its log:\n" + tail(60));
    }

    /** Kills the child with SIGKILL (kill -9), as in a crash, and waits until it is gone. */
    synchronized void kill() {
        releaseClaim();
        if (process != null) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(30), "did not die");
        }
    }

    /**
     * Stops the child with SIGTERM, as an operator does (its shutdown hooks run), and waits until it has exited. Not
     * {@code Process.destroy()}: that also closes the child's standard input, on which {@link #exitWhenParentGoes}
     * halts the child at once, before its shutdown hooks have run (a worker then left its groups only after their
     * session timeouts).
     */
    synchronized void stop(Duration timeout) {
        if (process != null) {
            signal("TERM");
            awaitExit(timeout, "did not stop in " + timeout.toSeconds() + " s");
        }
    }

    /**
     * SIGSTOP: a stopped process keeps its sockets open but answers nothing, like a JVM in a long GC pause or a frozen
     * host; {@link #resume()} (SIGCONT) lets it go on.
     */
    synchronized void pause() {
        signal("STOP");
    }

    synchronized void resume() {
        signal("CONT");
    }

    /** Kills the child and deletes its directory. */
    @Override
    public synchronized void close() {
        destroy();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook is running
            }
            shutdownHook = null;
        }
    }

    /**
     * {@code java} of this JVM's installation with the options every sandbox child has, the options of the system
     * property {@value #JVM_OPTIONS_PROPERTY} (blank-separated; the build's tests set it, benchmarks do not), then
     * {@code options}.
     */
    static List<String> javaCommand(String... options) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Djava.net.preferIPv4Stack=true");
        command.addAll(propertyOptions());
        command.addAll(List.of(options));
        return command;
    }

    /** The options of {@value #JVM_OPTIONS_PROPERTY}, none when it is unset or blank. */
    static List<String> propertyOptions() {
        String options = System.getProperty(JVM_OPTIONS_PROPERTY, "").strip();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    /**
     * In the child: halts the JVM as soon as its standard input closes, so it never outlives the JVM that started
     * it, even when that one is killed. The parent writes nothing else there but a request to dump the class archive
     * ({@link ClassArchive#DUMP_REQUEST}).
     */
    static void exitWhenParentGoes(InputStream parentPipe) {
        Thread watchdog = new Thread(() -> {
            try {
                BufferedReader lines = new BufferedReader(new InputStreamReader(parentPipe, StandardCharsets.UTF_8));
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    String[] request = line.split("\t");
                    if (request.length == 4 && request[0].equals(ClassArchive.DUMP_REQUEST)) {
                        ClassArchive.dumpThisJvm(Path.of(request[1]), Path.of(request[2]), Path.of(request[3]));
                    }
                }
            } catch (IOException e) {
                // the pipe broke: the parent is gone as well
            }
            Runtime.getRuntime().halt(0);
        }, "sandbox-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** A child that claimed its class archive and goes before it answered gives the claim back. */
    private void releaseClaim() {
        if (dumps != null) {
            dumps.release();
            dumps = null;
        }
    }

    private Process running() {
        if (process == null) {
            throw new IllegalStateException(what + " was never started or is closed");
        }
        return process;
    }

    private synchronized void destroy() {
        releaseClaim();
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
        OPEN.remove(this);
        if (!Boolean.getBoolean("sandbox.keep")) {
            deleteRecursively(workDir);
        }
    }

    private void awaitExit(Duration timeout, String otherwise) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(what + " (pid " + process.pid() + ") " + otherwise);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what + " to exit", e);
        }
    }

    private void signal(String signal) {
        long pid = running().pid();
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " (" + what + ") failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not send SIG" + signal + " to " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal + " to " + what, e);
        }
    }

    private String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: it lives under the temp dir
        }
    }
}
