package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class ChildJvmTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void pausesKillsAndRelaunchesAChildKeepingOneLogAndDeletesItsDirectoryOnClose() throws IOException {
        ChildJvm child = ChildJvm.inTempDir("the test child", "quarantine-child-test-", "child.log");
        Path dir = child.workDir();
        try {
            child.launch(command());
            Await.until("the child's line in its log", DEADLINE, () -> upLines(child) == 1);

            child.pause();
            Await.until("the child stopped (state T)", DEADLINE, () -> "T".equals(state(child.pid())));
            child.resume();
            Await.until("the child running again", DEADLINE, () -> !"T".equals(state(child.pid())));

            child.kill();
            assertThat(child.isAlive()).as("after kill -9").isFalse();
            child.launch(command());
            Await.until("the relaunched child's line appended to the same log", DEADLINE, () -> upLines(child) == 2);

            child.stop(DEADLINE);
            assertThat(child.isAlive()).as("after SIGTERM").isFalse();
            assertThat(Files.readAllLines(child.log())).as("its shutdown hook ran").endsWith("child stopped");
        } finally {
            child.close();
        }
        assertThat(dir).doesNotExist();
    }

    @Test
    void failsNamingTheExitCodeAndTheLogsTailWhenTheChildExitsWhileStarting() {
        try (ChildJvm child = ChildJvm.inTempDir("the test child", "quarantine-child-test-", "child.log")) {
            List<String> command = command();
            command.add("exit");
            child.launch(command);
            Await.until("the child to exit", DEADLINE, () -> !child.isAlive());

            assertThatThrownBy(() -> child.requireAlive("starting")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the test child exited with code 3 while starting")
                    .hasMessageContaining("giving up");
        }
    }

    @Test
    void givesEveryChildTheOptionsOfTheSandboxJvmOptionsPropertyBeforeItsOwn() {
        String before = System.getProperty(ChildJvm.JVM_OPTIONS_PROPERTY);
        try {
            System.setProperty(ChildJvm.JVM_OPTIONS_PROPERTY, " -XX:TieredStopAtLevel=1 \t -XX:+UseSerialGC ");
            assertThat(ChildJvm.javaCommand("-Xmx64m")).endsWith("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-Xmx64m");

            System.setProperty(ChildJvm.JVM_OPTIONS_PROPERTY, "  ");
            assertThat(ChildJvm.javaCommand("-Xmx64m")).endsWith("-Djava.net.preferIPv4Stack=true", "-Xmx64m");
        } finally {
            if (before == null) {
                System.clearProperty(ChildJvm.JVM_OPTIONS_PROPERTY);
            } else {
                System.setProperty(ChildJvm.JVM_OPTIONS_PROPERTY, before);
            }
        }
    }

    private static List<String> command() {
        List<String> command = ChildJvm.javaCommand("-Xmx64m");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ChildJvmTestMain.class.getName()));
        return command;
    }

    private static long upLines(ChildJvm child) {
        try {
            return Files.readAllLines(child.log()).stream().filter("child up"::equals).count();
        } catch (IOException notWrittenYet) {
            return 0;
        }
    }

    /** The process state letter of {@code /proc/<pid>/stat} (Linux): {@code T} when stopped by a signal. */
    private static String state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[0];
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the state of process " + pid, e);
        }
    }
}
