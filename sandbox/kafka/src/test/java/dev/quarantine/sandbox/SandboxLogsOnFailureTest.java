package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class SandboxLogsOnFailureTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path logs;

    @Test
    void addsTheCopiedLogOfEveryOpenChildToTheFailureAndRethrowsTheSameFailure() throws IOException {
        try (ChildJvm child = ChildJvm.inTempDir("the test child", "quarantine-child-test-", "child.log")) {
            child.launch(command());
            Await.until("the child's line in its log", DEADLINE, () -> logSays(child, "child up"));
            String warning = "03:00:00.000 [main] WARN org.example.Worker - the task failed";
            Files.writeString(child.log(), warning + "\n", StandardOpenOption.APPEND);
            AssertionError failure = new AssertionError("expected 3 records");

            Throwable thrown = SandboxLogsOnFailure.withLogs(logs, failure);

            Path copy = logs.resolve(child.workDir().getFileName() + "-child.log");
            assertThat(thrown).isSameAs(failure).hasMessage("expected 3 records");
            assertThat(thrown.getSuppressed()).singleElement().extracting(Throwable::getMessage).asString()
                    .contains("the test child: " + copy.toAbsolutePath() + "\n    | " + warning);
            assertThat(copy).content().contains("child up");
        }
    }

    @Test
    void leavesAFailureAloneWhenNoChildIsOpen() {
        AssertionError failure = new AssertionError("expected 3 records");

        Throwable thrown = SandboxLogsOnFailure.withLogs(logs, failure);

        assertThat(ChildJvm.open()).isEmpty();
        assertThat(thrown).isSameAs(failure);
        assertThat(thrown.getSuppressed()).isEmpty();
        assertThat(logs).isEmptyDirectory();
    }

    @Test
    void letsAnAbortedTestPassThroughWithoutLogs() {
        try (ChildJvm child = ChildJvm.inTempDir("the test child", "quarantine-child-test-", "child.log")) {
            TestAbortedException aborted = new TestAbortedException("assumption not met");

            Throwable thrown = SandboxLogsOnFailure.withLogs(logs, aborted);

            assertThat(child.what()).isEqualTo("the test child");
            assertThat(thrown).isSameAs(aborted);
            assertThat(thrown.getSuppressed()).isEmpty();
        }
    }

    private static boolean logSays(ChildJvm child, String line) {
        try {
            return Files.readAllLines(child.log()).contains(line);
        } catch (IOException notWrittenYet) {
            return false;
        }
    }

    private static List<String> command() {
        List<String> command = ChildJvm.javaCommand("-Xmx64m");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ChildJvmTestMain.class.getName()));
        return command;
    }
}
