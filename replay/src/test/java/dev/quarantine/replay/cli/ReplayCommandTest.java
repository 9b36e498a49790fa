package dev.quarantine.replay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import dev.quarantine.replay.ReplayConfig;

class ReplayCommandTest {

    @TempDir
    Path dir;

    @Test
    void mapsTheOptionsOntoReplaySettingsOverTheCommandConfigFile() throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SASL_SSL\nreplay.max.attempts=7\nreplay.batch.size=9\n");

        Map<String, Object> settings = parse("--bootstrap-server", "b:9092", "--dlq", "orders.dlq",
                "--command-config", file.toString(), "--error-class", "RecordTooLargeException,SerializationException",
                "--offsets", "0@4", "--offsets", "1@2", "--batch-size", "50", "--force-truncated",
                "--destination", "source", "--until", "0:1200,1:980", "--max-records-per-second", "250",
                "--max-bytes-per-second", "1048576").settings();

        assertThat(settings).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry(ReplayConfig.MAX_ATTEMPTS_CONFIG, "7")
                .containsEntry(ReplayConfig.BATCH_SIZE_CONFIG, "50")
                .containsEntry(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, "b:9092")
                .containsEntry(ReplayConfig.DLQ_TOPIC_CONFIG, "orders.dlq")
                .containsEntry(ReplayConfig.FILTER_ERROR_CLASSES_CONFIG,
                        "RecordTooLargeException,SerializationException")
                .containsEntry(ReplayConfig.FILTER_OFFSETS_CONFIG, "0@4,1@2")
                .containsEntry(ReplayConfig.FORCE_TRUNCATED_CONFIG, "true")
                .containsEntry(ReplayConfig.DESTINATION_CONFIG, "source")
                .containsEntry(ReplayConfig.UNTIL_OFFSETS_CONFIG, "0:1200,1:980")
                .containsEntry(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "250")
                .containsEntry(ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG, "1048576")
                .doesNotContainKeys(ReplayConfig.FILTER_TIME_FROM_CONFIG, ReplayConfig.PARKING_TOPIC_CONFIG);
        assertThat(new ReplayConfig(settings).maxAttempts()).isEqualTo(7);
        assertThat(new ReplayConfig(settings).untilOffsets()).contains(Map.of(0, 1200L, 1, 980L));
    }

    @Test
    void givesEachRunANewReplayIdUnlessOneIsNamed() throws Exception {
        String generated = (String) parse("--bootstrap-server", "b:9092", "--dlq", "d").settings()
                .get(ReplayConfig.REPLAY_ID_CONFIG);
        Map<String, Object> named = parse("--bootstrap-server", "b:9092", "--dlq", "d", "--replay-id", "fix-2")
                .settings();

        assertThat(generated).startsWith("cli-");
        assertThat(named).containsEntry(ReplayConfig.REPLAY_ID_CONFIG, "fix-2");
    }

    @Test
    void cancelNeedsAReplayIdAndNoDryRunAndConnectsToNothingWithout() {
        for (String[] args : new String[][] {
            {"replay", "--bootstrap-server", "127.0.0.1:1", "--dlq", "d", "--cancel"},
            {"replay", "--bootstrap-server", "127.0.0.1:1", "--dlq", "d", "--cancel", "--replay-id", "r", "--dry-run"}}) {
            StringWriter err = new StringWriter();

            int exit = new CommandLine(new QuarantineCommand()).setErr(new PrintWriter(err)).execute(args);

            assertThat(exit).isEqualTo(ReplayCommand.USAGE);
            assertThat(err.toString()).contains("--cancel needs --replay-id <id> and no --dry-run");
        }
    }

    @Test
    void aProgressTopicOutsideTheReservedNamesIsABadOptionNamingTheSetting() {
        StringWriter err = new StringWriter();

        int exitCode = new CommandLine(new QuarantineCommand()).setOut(new PrintWriter(new StringWriter()))
                .setErr(new PrintWriter(err)).execute("replay", "--bootstrap-server", "127.0.0.1:1", "--dlq",
                        "orders.dlq", "--destination", "orders", "--progress-topic", "team-a-progress");

        assertThat(exitCode).as(err.toString()).isEqualTo(ReplayCommand.USAGE);
        assertThat(err.toString()).contains(ReplayConfig.PROGRESS_TOPIC_CONFIG, "quarantine-replay-progress");
    }

    @Test
    void aNegativeSpeedLimitIsABadOptionNamingTheSettingAndConnectsToNothing() {
        for (String option : new String[] {"--max-records-per-second", "--max-bytes-per-second"}) {
            StringWriter err = new StringWriter();

            int exitCode = new CommandLine(new QuarantineCommand()).setOut(new PrintWriter(new StringWriter()))
                    .setErr(new PrintWriter(err)).execute("replay", "--bootstrap-server", "127.0.0.1:1", "--dlq",
                            "orders.dlq", "--destination", "orders", option, "-1");

            assertThat(exitCode).as(err.toString()).isEqualTo(ReplayCommand.USAGE);
            assertThat(err.toString()).contains(option.equals("--max-records-per-second")
                    ? ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG : ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG)
                    .contains("must be 0 (no limit) or more");
        }
    }

    private static ReplayCommand parse(String... args) {
        ReplayCommand command = new ReplayCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }
}
