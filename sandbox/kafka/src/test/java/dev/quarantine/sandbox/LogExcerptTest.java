package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
                "\tSuppressed: java.lang.IllegalStateException: dev.quarantine.connect.sink.TaskWriter failed",
                "\t\tat dev.quarantine.connect.sink.TaskWriter.write(TaskWriter.java:376)",
                "\t\t... 12 more",
                "Caused by: org.apache.kafka.common.errors.TimeoutException: Timeout expired after 15000ms",
                "\tconnector.class = dev.quarantine.connect.sink.TransactionalKafkaSinkConnector",
                "03:16:05.000 [main] DEBUG org.apache.kafka.clients.Metadata - updated",
                "Exception in thread \"main\" java.lang.IllegalStateException: x"));

        assertThat(LogExcerpt.of(log)).containsExactly(
                "03:16:02.001 [main] WARN org.apache.kafka.clients.NetworkClient - Connection to node 1 could not be"
                        + " established",
                "03:16:03.598 [qtp-19] INFO dev.quarantine.connect.rest.http.ErrorBody - request 9 answered 503:"
                        + " worker http://127.0.0.1:1 did not answer",
                "03:16:04.000 [main] ERROR org.apache.kafka.connect.runtime.Worker - Graceful stop of task failed.",
                "Caused by: org.apache.kafka.common.errors.TimeoutException: Timeout expired after 15000ms",
                "Exception in thread \"main\" java.lang.IllegalStateException: x");
    }

    @Test
    void readsTheTailOnlyAndNeverItsFirstFragment() throws IOException {
        StringBuilder log = new StringBuilder("03:00:00.000 [main] WARN x - long ago\n");
        while (log.length() < LogExcerpt.TAIL_BYTES + 100_000) {
            log.append("03:00:01.000 [main] WARN x - ").append("\u00e9".repeat(100)).append('\n');
        }
        log.append("03:00:02.000 [main] WARN x - the last\n");
        byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);
        // one more byte at the end until the tail starts inside a two-byte character
        int extra = 0;
        while ((bytes[bytes.length + extra - LogExcerpt.TAIL_BYTES] & 0xC0) != 0x80) {
            extra++;
        }
        Path file = dir.resolve("worker.log");
        Files.write(file, bytes);
        Files.write(file, "\n".repeat(extra).getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);

        List<String> excerpt = LogExcerpt.of(file);

        assertThat(excerpt).noneMatch(line -> line.contains("long ago")).noneMatch(line -> line.contains("\ufffd"))
                .last().isEqualTo("03:00:02.000 [main] WARN x - the last");
    }

    @Test
    void showsOneLinePerLineWithoutControlCharacters() throws IOException {
        Path log = dir.resolve("worker.log");
        Files.writeString(log, "03:00:00.000 [main] WARN x - \u001b[31mred\r\n03:00:01.000 [main] ERROR y - "
                + "z".repeat(LogExcerpt.MAX_LINE_CHARS - 31) + "\ud83d\ude00 cut\r\n");

        List<String> excerpt = LogExcerpt.of(log);

        assertThat(excerpt).hasSize(2).noneMatch(line -> line.endsWith("\r"));
        assertThat(excerpt.get(0)).isEqualTo("03:00:00.000 [main] WARN x - ?[31mred");
        assertThat(excerpt.get(1)).doesNotContain("\ud83d").endsWith("z [...]");
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
