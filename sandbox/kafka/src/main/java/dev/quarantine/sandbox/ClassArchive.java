package dev.quarantine.sandbox;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import javax.management.ObjectName;

/**
 * A dynamic class-data-sharing archive (the JDK's AppCDS) of one child command line, kept in the directory the system
 * property {@value #DIR_PROPERTY} names (the build's tests set it to the module's {@code target/sandbox-cds}; unset,
 * as in benchmarks and the quickstart, there is none). A build's tests start brokers and workers again and again on
 * the same classpath; with the archive a child maps the classes of its start instead of reading, parsing and
 * verifying each of them (a broker's start here: about 3.5 CPU seconds without, 2.6 with).
 *
 * <p>The second child of a command line, when it claims the archive ({@link #claimed}), runs with
 * {@code -XX:+RecordDynamicDumpInfo}; once its owner has seen it answer, {@link #dumpWhenAnswering} asks it through its
 * standard input to dump the classes it has loaded ({@code VM.cds dynamic_dump}, in {@link #dumpThisJvm}) and waits
 * until the archive is in place. Children started meanwhile run without one. An archive is named by what makes it
 * valid: the JDK, the JVM's {@code -X} options, the main class and each classpath entry with its size and
 * modification time, so that a rebuilt jar gets a new one; the JVM checks the same itself and, should the archive not
 * match, starts without it ({@code -Xshare:auto}). A classpath with a directory has none (the JDK archives jars only).
 */
final class ClassArchive {

    /** System property naming the directory of the archives; unset or blank: children run without one. */
    static final String DIR_PROPERTY = "sandbox.cds.dir";

    /**
     * The line a child reads on its standard input, then, each after a tab, the file to dump into, the archive, and
     * the file to write when the dump failed.
     */
    static final String DUMP_REQUEST = "cds-dump";

    private static final Duration STALE_CLAIM = Duration.ofMinutes(5);
    private static final Duration DUMP_TIMEOUT = Duration.ofSeconds(30);
    /** The JDK's messages about archives: a mismatch is not the test's business, nor are classes it skips. */
    private static final String QUIET = "-Xlog:cds=off,cds+dynamic=off";

    private final Path archive;
    private final Path claim;
    private final Path seen;
    /** Written when a dump failed or took too long: the command line runs without an archive from then on. */
    private final Path failed;

    private ClassArchive(Path archive) {
        String name = archive.getFileName().toString().replace(".jsa", "");
        this.archive = archive;
        this.claim = archive.resolveSibling(name + ".claim");
        this.seen = archive.resolveSibling(name + ".seen");
        this.failed = archive.resolveSibling(name + ".failed");
    }

    /**
     * The archive of {@code command} ({@code java}, options, {@code -cp}, a classpath, the main class, arguments) in
     * the directory of {@value #DIR_PROPERTY}; empty when that is unset or has blanks in its path (the JDK's
     * diagnostic command splits its arguments at blanks), or when the classpath is not all jars.
     */
    static Optional<ClassArchive> of(List<String> command) {
        String dir = System.getProperty(DIR_PROPERTY, "").strip();
        int cp = command.indexOf("-cp");
        if (dir.isEmpty() || cp < 0 || cp + 2 >= command.size()
                || Path.of(dir).toAbsolutePath().toString().chars().anyMatch(Character::isWhitespace)) {
            return Optional.empty();
        }
        String main = command.get(cp + 2);
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            List<String> named = new ArrayList<>(List.of(System.getProperty("java.home"),
                    System.getProperty("java.vm.version"), main));
            command.subList(1, cp).stream().filter(option -> option.startsWith("-X")).forEach(named::add);
            for (String entry : command.get(cp + 1).split(File.pathSeparator)) {
                Path jar = Path.of(entry);
                if (!Files.isRegularFile(jar)) {
                    return Optional.empty();
                }
                named.add(entry + "|" + Files.size(jar) + "|" + Files.getLastModifiedTime(jar).toMillis());
            }
            named.forEach(part -> digest.update((part + "\n").getBytes(StandardCharsets.UTF_8)));
            String name = main.substring(main.lastIndexOf('.') + 1) + "-"
                    + HexFormat.of().formatHex(digest.digest(), 0, 8);
            Path directory = Files.createDirectories(Path.of(dir));
            return Optional.of(new ClassArchive(directory.resolve(name + ".jsa")));
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the class archive directory " + dir + " ("
                    + DIR_PROPERTY + ")", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Where the archive is (or will be). */
    Path path() {
        return archive;
    }

    /** Whether the archive is there to run with. */
    boolean exists() {
        return Files.isRegularFile(archive);
    }

    /** The options of a child that runs with the archive. */
    List<String> useOptions() {
        return List.of("-XX:SharedArchiveFile=" + archive, QUIET);
    }

    /** The options of the child that will dump it. */
    List<String> dumpOptions() {
        return List.of("-XX:+RecordDynamicDumpInfo", QUIET);
    }

    /**
     * Whether this caller may dump the archive: not at the first launch of the command line (a command line launched
     * once, such as an older Connect worker's in the compatibility tests, would pay for a dump nobody maps), then the
     * first to ask since the last claim was released, or since it went stale (its owner died while dumping).
     */
    boolean claimed() {
        if (Files.exists(failed)) {
            return false;
        }
        try {
            Files.createFile(seen);
            return false;
        } catch (FileAlreadyExistsException again) {
            // launched before: claim it
        } catch (IOException e) {
            return false;
        }
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                Files.createFile(claim);
                return true;
            } catch (FileAlreadyExistsException held) {
                try {
                    if (Files.getLastModifiedTime(claim).toInstant().isAfter(Instant.now().minus(STALE_CLAIM))) {
                        return false;
                    }
                    Files.deleteIfExists(claim);
                } catch (IOException gone) {
                    // released meanwhile: ask again
                }
            } catch (IOException e) {
                return false;
            }
        }
        return false;
    }

    /**
     * Asks {@code child}, started with {@link #dumpOptions()} and answering now, to dump the classes it has loaded,
     * waits until the archive is in place, the child reports it failed (or is gone), or 30 s passed, then releases
     * the claim. A dump that failed or took too long is not tried again for this command line. Never fails the
     * child's start itself: without an archive the next children run as before.
     */
    void dumpWhenAnswering(ChildJvm child) {
        Path dumping = archive.resolveSibling(archive.getFileName() + "." + child.pid() + ".tmp");
        try {
            child.tell(DUMP_REQUEST + "\t" + dumping + "\t" + archive + "\t" + failed);
            Instant deadline = Instant.now().plus(DUMP_TIMEOUT);
            while (!exists() && !Files.exists(failed) && child.isAlive() && Instant.now().isBefore(deadline)) {
                Thread.sleep(50);
            }
            if (!exists()) {
                markFailed(failed);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            release();
        }
    }

    /** Gives the claim back (a child that claimed it and never answered, or has dumped). */
    void release() {
        try {
            Files.deleteIfExists(claim);
        } catch (IOException e) {
            // goes stale
        }
    }

    /**
     * In the child, on a {@link #DUMP_REQUEST}: dumps this JVM's loaded classes into {@code dumping}, then moves it
     * to {@code archive} in one step, so that no child ever maps half an archive; nothing when another child's
     * archive is there already. A failure is printed to the child's log and written as {@code failed}.
     */
    static void dumpThisJvm(Path dumping, Path archive, Path failed) {
        if (Files.isRegularFile(archive)) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmCds",
                    new Object[] {new String[] {"dynamic_dump", dumping.toString()}},
                    new String[] {String[].class.getName()});
            Files.move(dumping, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (Exception e) {
            System.err.println("sandbox: no class archive " + archive + ": " + e);
            markFailed(failed);
            try {
                Files.deleteIfExists(dumping);
            } catch (IOException ignored) {
                // in target/, removed by the next clean
            }
        }
    }

    private static void markFailed(Path failed) {
        try {
            Files.writeString(failed, "");
        } catch (IOException ignored) {
            // the next claim tries again
        }
    }
}
