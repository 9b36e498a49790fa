package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchiveTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private String before;

    @BeforeEach
    void archivesHere() {
        before = System.getProperty(ClassArchive.DIR_PROPERTY);
        System.setProperty(ClassArchive.DIR_PROPERTY, dir.resolve("cds").toString());
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(ClassArchive.DIR_PROPERTY);
        } else {
            System.setProperty(ClassArchive.DIR_PROPERTY, before);
        }
    }

    @Test
    void noArchiveWhenTheDirectoryIsUnsetOrTheClasspathHasADirectory() throws IOException {
        Path jar = emptyJar("a.jar");
        System.setProperty(ClassArchive.DIR_PROPERTY, " ");
        assertThat(ClassArchive.of(command(List.of(), jar.toString()))).isEmpty();

        System.setProperty(ClassArchive.DIR_PROPERTY, dir.resolve("c ds").toString());
        assertThat(ClassArchive.of(command(List.of(), jar.toString()))).as("a blank in the directory's path").isEmpty();

        System.setProperty(ClassArchive.DIR_PROPERTY, dir.resolve("cds").toString());
        assertThat(ClassArchive.of(command(List.of(), jar.toString()))).isPresent();
        assertThat(ClassArchive.of(command(List.of(), jar + ":" + dir))).as("a class directory").isEmpty();
        assertThat(ClassArchive.of(command(List.of(), jar + ":" + dir.resolve("missing.jar")))).as("a missing jar")
                .isEmpty();
        assertThat(ClassArchive.of(List.of("java", "-version"))).as("no -cp").isEmpty();
    }

    @Test
    void namesTheArchiveByTheJdkTheXOptionsTheMainClassAndEachJarsSizeAndTime() throws IOException {
        Path jar = emptyJar("a.jar");
        Path first = archive(List.of("-Xmx64m", "-Dport=1"), jar.toString(), "x.Main");

        assertThat(first.getFileName().toString()).matches("Main-[0-9a-f]{16}\\.jsa");
        assertThat(archive(List.of("-Xmx64m", "-Dport=2"), jar.toString(), "x.Main")).as("a -D option").isEqualTo(first);
        assertThat(archive(List.of("-Xmx128m", "-Dport=1"), jar.toString(), "x.Main")).as("-Xmx").isNotEqualTo(first);
        assertThat(archive(List.of("-Xmx64m", "-Dport=1"), jar.toString(), "x.Other")).as("the main class")
                .isNotEqualTo(first);

        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60)));
        assertThat(archive(List.of("-Xmx64m", "-Dport=1"), jar.toString(), "x.Main")).as("the jar rebuilt")
                .isNotEqualTo(first);
    }

    @Test
    void noClaimAtTheFirstLaunchThenOneAtATimeAndAStaleOneIsTakenOver() throws IOException {
        ClassArchive archive = ClassArchive.of(command(List.of(), emptyJar("a.jar").toString())).orElseThrow();

        assertThat(archive.claimed()).as("the first launch of the command line").isFalse();
        assertThat(archive.claimed()).as("the second").isTrue();
        assertThat(archive.claimed()).as("claimed already").isFalse();

        Path claim = archive.path().resolveSibling(archive.path().getFileName().toString().replace(".jsa", ".claim"));
        Files.setLastModifiedTime(claim, FileTime.from(Instant.now().minus(Duration.ofMinutes(6))));
        assertThat(archive.claimed()).as("its claimer gone for 6 minutes").isTrue();
    }

    /**
     * The first child of a command line runs without an archive; the second dumps it once it answers; the third maps
     * it (its /proc maps name the archive).
     */
    @Test
    void theSecondChildDumpsTheArchiveOnceItAnswersAndTheNextMapsIt() throws IOException {
        String classpath = jarOfTheSandboxClasses().toString();
        ClassArchive archive = ClassArchive.of(command(List.of("-Xmx64m"), classpath)).orElseThrow();

        try (ChildJvm first = ChildJvm.inTempDir("the first child", "quarantine-cds-test-", "child.log")) {
            first.launch(command(List.of("-Xmx64m"), classpath));
            Await.until("the child up", DEADLINE, () -> log(first).contains("child up"));
            first.answering();
            assertThat(archive.exists()).as("no archive from the first child").isFalse();
        }
        try (ChildJvm dumping = ChildJvm.inTempDir("the dumping child", "quarantine-cds-test-", "child.log")) {
            dumping.launch(command(List.of("-Xmx64m"), classpath));
            Await.until("the child up", DEADLINE, () -> log(dumping).contains("child up"));
            assertThat(archive.exists()).as("no archive before the child answers").isFalse();

            dumping.answering();

            assertThat(archive.exists()).as("the archive %s, the child's log: %s", archive.path(), log(dumping))
                    .isTrue();
            String name = archive.path().getFileName().toString();
            assertThat(Files.list(archive.path().getParent()).map(p -> p.getFileName().toString()))
                    .as("neither the claim nor a half-written file left").containsExactlyInAnyOrder(name,
                            name.replace(".jsa", ".seen"));
        }
        try (ChildJvm mapping = ChildJvm.inTempDir("the mapping child", "quarantine-cds-test-", "child.log")) {
            mapping.launch(command(List.of("-Xmx64m"), classpath));
            Await.until("the child up", DEADLINE, () -> log(mapping).contains("child up"));
            assertThat(Files.readString(Path.of("/proc", String.valueOf(mapping.pid()), "maps")))
                    .as("the child maps the archive").contains(archive.path().toString());
            assertThat(log(mapping)).as("the JDK's archive messages kept out of the log").doesNotContain("[cds");
        }
    }

    /**
     * A dump that fails (here its archive's path is taken by a folder) is written down: the child goes on, and the
     * command line is not claimed again, so that no later start waits for a dump.
     */
    @Test
    void aDumpThatFailsIsNotTriedAgainAndTheChildGoesOn() throws IOException {
        String classpath = jarOfTheSandboxClasses().toString();
        ClassArchive archive = ClassArchive.of(command(List.of("-Xmx64m"), classpath)).orElseThrow();
        Files.createDirectories(archive.path().resolve("in-the-way"));
        assertThat(archive.claimed()).as("the first launch").isFalse();

        try (ChildJvm dumping = ChildJvm.inTempDir("the dumping child", "quarantine-cds-test-", "child.log")) {
            dumping.launch(command(List.of("-Xmx64m"), classpath));
            Await.until("the child up", DEADLINE, () -> log(dumping).contains("child up"));

            dumping.answering();

            assertThat(dumping.isAlive()).as("the child after its failed dump").isTrue();
            assertThat(log(dumping)).contains("sandbox: no class archive " + archive.path());
        }
        assertThat(archive.exists()).isFalse();
        assertThat(archive.claimed()).as("claimed again after a failed dump").isFalse();
    }

    /** A child launched as one that must not pause (a joining broker) neither claims nor dumps. */
    @Test
    void aChildThatMustNotPauseDoesNotClaim() throws IOException {
        String classpath = jarOfTheSandboxClasses().toString();
        ClassArchive archive = ClassArchive.of(command(List.of("-Xmx64m"), classpath)).orElseThrow();
        assertThat(archive.claimed()).as("the first launch").isFalse();

        try (ChildJvm child = ChildJvm.inTempDir("the joining child", "quarantine-cds-test-", "child.log")) {
            child.launch(command(List.of("-Xmx64m"), classpath), false);
            Await.until("the child up", DEADLINE, () -> log(child).contains("child up"));
            child.answering();
        }
        assertThat(archive.exists()).isFalse();
        assertThat(archive.claimed()).as("still free to claim").isTrue();
    }

    private static List<String> command(List<String> options, String classpath) {
        return command(options, classpath, ChildJvmTestMain.class.getName());
    }

    private static List<String> command(List<String> options, String classpath, String main) {
        List<String> command = new ArrayList<>(ChildJvm.javaCommand(options.toArray(String[]::new)));
        command.addAll(List.of("-cp", classpath, main));
        return command;
    }

    private static Path archive(List<String> options, String classpath, String main) {
        return ClassArchive.of(command(options, classpath, main)).orElseThrow().path();
    }

    private Path emptyJar(String name) throws IOException {
        Path jar = dir.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("empty.txt"));
            out.closeEntry();
        }
        return jar;
    }

    /** The sandbox's classes and the test child's, from this JVM's class directories into one jar. */
    private Path jarOfTheSandboxClasses() throws IOException {
        Path jar = dir.resolve("sandbox-classes.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            for (Class<?> type : List.of(ChildJvm.class, ChildJvmTestMain.class)) {
                Path root = Path.of(type.getProtectionDomain().getCodeSource().getLocation().getPath());
                Path folder = root.resolve("dev/quarantine/sandbox");
                try (Stream<Path> classes = Files.list(folder)) {
                    for (Path path : classes.filter(p -> p.toString().endsWith(".class")).toList()) {
                        out.putNextEntry(new JarEntry("dev/quarantine/sandbox/" + path.getFileName()));
                        out.write(Files.readAllBytes(path));
                        out.closeEntry();
                    }
                }
            }
        }
        return jar;
    }

    private static String log(ChildJvm child) {
        try {
            return Files.readString(child.log());
        } catch (IOException notYet) {
            return "";
        }
    }
}
