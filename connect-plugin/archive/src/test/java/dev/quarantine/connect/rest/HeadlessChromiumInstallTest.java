package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HeadlessChromium#onceOnThisMachine}: failsafe's test JVMs of a fresh machine's first run each found Chromium
 * missing and ran apt-get at the same moment, and all but one failed on apt's lock. Here three JVMs "install" at once
 * through the lock: one installs, the others wait and find it installed.
 */
class HeadlessChromiumInstallTest {

    @Test
    void jvmsOfOneMachineInstallOneAtATimeAndOnlyOnce(@TempDir Path dir) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<Process> jvms = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            jvms.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    Installer.class.getName(), dir.toString()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("jvm-" + i + ".log").toFile()).start());
        }
        List<String> said = new ArrayList<>();
        for (int i = 0; i < jvms.size(); i++) {
            assertThat(jvms.get(i).waitFor(60, TimeUnit.SECONDS)).as("JVM %d ended", i).isTrue();
            said.add(Files.readString(dir.resolve("jvm-" + i + ".log"), StandardCharsets.UTF_8).strip());
        }
        assertThat(said).as("what each JVM's install said").containsOnlyOnce("installed")
                .filteredOn(s -> !s.equals("installed"))
                .containsOnly("installed by another JVM while this one waited");
        assertThat(Files.readAllLines(dir.resolve("installs"))).as("installs run").hasSize(1);
    }

    @Test
    void saysWhyWhenTheLockFileCannotBeOpened(@TempDir Path dir) {
        Path noSuchDir = dir.resolve("missing").resolve("install.lock");
        assertThat(HeadlessChromium.onceOnThisMachine(noSuchDir, () -> false, () -> "ran"))
                .startsWith("could not lock " + noSuchDir + " to install: ");
    }

    /**
     * One JVM's install: an installation that takes a second and fails when another runs at the same time (as
     * apt-get does), marked installed by a file; prints what {@link HeadlessChromium#onceOnThisMachine} answered.
     */
    static final class Installer {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            Path installed = dir.resolve("installed");
            Path running = dir.resolve("running");
            System.out.println(HeadlessChromium.onceOnThisMachine(dir.resolve("install.lock"),
                    () -> Files.exists(installed), () -> {
                        try {
                            Files.createFile(running);
                            Files.writeString(dir.resolve("installs"), ProcessHandle.current().pid() + "\n",
                                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                            Thread.sleep(1000);
                            Files.createFile(installed);
                            Files.delete(running);
                            return "installed";
                        } catch (FileAlreadyExistsException e) {
                            return "another install was running: " + e.getFile();
                        } catch (IOException | InterruptedException e) {
                            return "failed: " + e;
                        }
                    }));
        }
    }
}
