package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogExcerptTest {

    @TempDir
    Path dir;

    @Test
    void keepsWarningsErrorsAndOurOwnLinesButNoStackFrameNorOtherInfo() throws IOException {
        Path log = write(List.of(
                "03:16:01.713 [main] INFO org.apache.kafka.streams.KafkaStreams - State transition from A to B",
                "03:16:02.001 [main] WARN org.apache.kafka.clients.NetworkClient - Connection to node 1 could not be"
                        + " established",
                "03:16:03.598 [qtp-19] INFO dev.quarantine.connect.rest.http.ErrorBody - request 9 answered 503:"
                        + " worker http://127.0.0.1:1 did not answer",
                "03:16:04.000 [main] ERROR org.apache.kafka.connect.runtime.Worker - Graceful stop of task failed.",
                "\tat dev.quarantine.connect.rest.Monitor.round(Monitor.java:1)",
                "03:16:05.000 [main] DEBUG org.apache.kafka.clients.Metadata - updated"));

        assertThat(LogExcerpt.of(log)).containsExactly(
                "03:16:02.001 [main] WARN org.apache.kafka.clients.NetworkClient - Connection to node 1 could not be"
                        + " established",
                "03:16:03.598 [qtp-19] INFO dev.quarantine.connect.rest.http.ErrorBody - request 9 answered 503:"
                        + " worker http://127.0.0.1:1 did not answer",
                "03:16:04.000 [main] ERROR org.apache.kafka.connect.runtime.Worker - Graceful stop of task failed.");
    }

    @Test
    void keepsTheLastLinesOnlyEachCut() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            lines.add("03:16:00.000 [main] WARN x - line " + i + " " + "y".repeat(1_000));
        }

        List<String> excerpt = LogExcerpt.of(write(lines));

        assertThat(excerpt).hasSize(LogExcerpt.MAX_LINES);
        assertThat(excerpt.get(0)).startsWith("03:16:00.000 [main] WARN x - line " + (40 - LogExcerpt.MAX_LINES) + " ");
        assertThat(excerpt.get(LogExcerpt.MAX_LINES - 1)).startsWith("03:16:00.000 [main] WARN x - line 39 ");
        assertThat(excerpt).allSatisfy(line -> assertThat(line).hasSize(LogExcerpt.MAX_LINE_CHARS + " [...]".length())
                .endsWith(" [...]"));
    }

    @Test
    void aLogThatIsNotThereGivesNothing() {
        assertThat(LogExcerpt.of(dir.resolve("never-written.log"))).isEmpty();
    }

    private Path write(List<String> lines) throws IOException {
        return Files.write(dir.resolve("worker.log"), lines);
    }
}
