package dev.quarantine.replay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import dev.quarantine.replay.CliFixtures;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayState;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;

/** {@code quarantine replay} end to end against a real broker, in this JVM and as its own JVM. */
@ExtendWith(LocalKafkaExtension.class)
class ReplayCliIT {

    private static final Duration DEADLINE = Duration.ofSeconds(180);

    @TempDir
    Path logs;

    @Test
    void dryRunPrintsWhereEachDeadLetterWouldGoAndWritesNothing(LocalKafka kafka) {
        String dlq = CliFixtures.stockConnectDlq(kafka, "dry");

        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--dry-run",
                "--replay-id", "dry-1", "--destinations-allowed", "dry-input");

        assertThat(run.exitCode).isEqualTo(ReplayCommand.DONE);
        assertThat(run.out).contains(dlq + "-0@0 -> dry-input-1  (RecordTooLargeException)")
                .contains(dlq + "-0@2 -> dry-input-1").contains("replayed                3")
                .contains("dry run: nothing written")
                .contains("Would write, per destination topic:\n  dry-input  3\n");
        assertThat(TopicReader.readCommitted(kafka, "dry-input", DEADLINE)).isEmpty();
        assertThat(CliFixtures.progress(kafka, "dry-1")).isEmpty();

        Run unlisted = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--dry-run",
                "--replay-id", "dry-2");

        assertThat(unlisted.exitCode).as("without an allow-list they would be refused")
                .isEqualTo(ReplayCommand.SOME_NOT_WRITTEN);
        assertThat(unlisted.out).contains(dlq + "-0@0 refused: dry-input is not matched by replay.destinations.allowed")
                .contains("refused destination     3").contains("Would write, per destination topic:\n  (none)\n")
                .contains("per destination topic:\n  dry-input  3\n");
        assertThat(TopicReader.readCommitted(kafka, "dry-input", DEADLINE)).isEmpty();
        assertThat(CliFixtures.progress(kafka, "dry-1")).isEmpty();
    }

    @Test
    void aReplayGivenTheDryRunsUntilWritesNoDeadLetterThatArrivedAfterTheDryRun(LocalKafka kafka) {
        String dlq = CliFixtures.stockConnectDlq(kafka, "bound");
        Run preview = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--dry-run",
                "--replay-id", "bound-dry", "--destinations-allowed", "bound-input");
        java.util.regex.Matcher until = java.util.regex.Pattern.compile("with --until (\\S+)\\)").matcher(preview.out);
        assertThat(until.find()).as(preview.out).isTrue();
        CliFixtures.rawLetter(kafka, dlq, "late", "v", new RecordHeader(DeadLetterHeaders.TARGET_TOPIC,
                "bound-input".getBytes(StandardCharsets.UTF_8)), CliFixtures.ourCategory());

        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq,
                "--replay-id", "bound-1", "--destinations-allowed", "bound-input", "--until", until.group(1));

        assertThat(run.exitCode).as(run.err).isEqualTo(ReplayCommand.DONE);
        assertThat(run.out).contains("replayed                3");
        assertThat(TopicReader.readCommitted(kafka, "bound-input", DEADLINE)).as("what the dry run read").hasSize(3);
    }

    @Test
    void replaysKafkaConnectsOwnDeadLettersToTheSinksInputTopicAndExitsZero(LocalKafka kafka) {
        String dlq = CliFixtures.stockConnectDlq(kafka, "stock");

        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq,
                "--replay-id", "stock-1", "--destinations-allowed", "stock-input");

        assertThat(run.exitCode).as(run.err).isEqualTo(ReplayCommand.DONE);
        assertThat(run.out).contains("Replay stock-1 of " + dlq + ": DONE").contains("replayed                3");
        List<ConsumerRecord<byte[], byte[]>> input = TopicReader.readCommitted(kafka, "stock-input", DEADLINE);
        assertThat(input).hasSize(3).allSatisfy(r -> {
            assertThat(r.partition()).isEqualTo(1);
            assertThat(r.headers().lastHeader("__connect.errors.topic")).isNull();
        });
    }

    @Test
    void exitsThreeWhenADeadLetterNamesNoDestinationOrARefusedOne(LocalKafka kafka) {
        String dlq = CliFixtures.stockConnectDlq(kafka, "lost");
        CliFixtures.rawLetter(kafka, dlq, "k", "v", new RecordHeader("note", "no context".getBytes(
                StandardCharsets.UTF_8)));
        CliFixtures.rawLetter(kafka, dlq, "k", "v", new RecordHeader(DeadLetterHeaders.TARGET_TOPIC,
                "__consumer_offsets".getBytes(StandardCharsets.UTF_8)), CliFixtures.ourCategory());

        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq,
                "--destinations-allowed", "lost-input");

        assertThat(run.exitCode).isEqualTo(ReplayCommand.SOME_NOT_WRITTEN);
        assertThat(run.out).contains("skipped, no destination 1").contains("replayed                3")
                .contains("refused destination     1");
    }

    @Test
    void aDenyListOfItsOwnDoesNotLetAReplayWriteConnectsConfigTopic(LocalKafka kafka) throws Exception {
        String dlq = CliFixtures.stockConnectDlq(kafka, "denied");
        CliFixtures.rawLetter(kafka, dlq, "connector-evil-cli", "{}", new RecordHeader(DeadLetterHeaders.TARGET_TOPIC,
                "connect-configs".getBytes(StandardCharsets.UTF_8)), CliFixtures.ourCategory());
        long configsBefore = committedCount(kafka, "connect-configs");

        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--replay-id",
                "denied-1", "--destinations-allowed", "denied-input|connect-configs", "--destinations-denied", "other");

        assertThat(run.exitCode).as(run.out + run.err).isEqualTo(ReplayCommand.SOME_NOT_WRITTEN);
        assertThat(run.out).contains("replayed                3").contains("refused destination     1");
        assertThat(CliFixtures.progress(kafka, "denied-1").orElseThrow().counts().refused()).isOne();
        assertThat(committedCount(kafka, "connect-configs")).as("nothing written to connect-configs")
                .isEqualTo(configsBefore);
    }

    @Test
    void aReplayRefusingEverySecondDeadLetterFinishesWithItsProgressWithinASmallProgressTopicsLimit(LocalKafka kafka)
            throws Exception {
        kafka.createTopic("quarantine-replay-progress-half", 1, Map.of("cleanup.policy", "compact", "max.message.bytes", "2048"));
        String dlq = CliFixtures.everySecondRefusedDlq(kafka, "half", 600);

        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--replay-id",
                "half-1", "--progress-topic", "quarantine-replay-progress-half", "--batch-size", "50", "--destinations-allowed",
                "half-output");

        assertThat(run.exitCode).as(run.err).isEqualTo(ReplayCommand.SOME_NOT_WRITTEN);
        assertThat(run.out).contains("Replay half-1 of " + dlq + ": DONE").contains("replayed                300")
                .contains("refused destination     300");
        assertThat(TopicReader.readCommitted(kafka, "half-output", DEADLINE).stream()
                .collect(Collectors.groupingBy(r -> new String(r.key(), StandardCharsets.UTF_8),
                        Collectors.counting()))).hasSize(300).allSatisfy((key, n) -> assertThat(n).isOne());
        assertThat(TopicReader.readCommitted(kafka, "quarantine-replay-progress-half", DEADLINE)).isNotEmpty()
                .allSatisfy(r -> assertThat(r.value().length).isLessThan(2048));
    }

    @Test
    void anEmptyUntilIsABadOptionAndReplaysNothing(LocalKafka kafka) {
        String dlq = CliFixtures.stockConnectDlq(kafka, "empty-until");

        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq,
                "--replay-id", "empty-until-1", "--destinations-allowed", "empty-until-input", "--until", "");

        assertThat(run.exitCode).as(run.out + run.err).isEqualTo(ReplayCommand.USAGE);
        assertThat(run.err).contains("--until lists no partition");
        assertThat(CliFixtures.progress(kafka, "empty-until-1")).isEmpty();
        assertThat(TopicReader.readCommitted(kafka, "empty-until-input", DEADLINE)).isEmpty();
    }

    @Test
    void rejectsABadOptionValueNamingTheSetting(LocalKafka kafka) {
        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", "x",
                "--offset-range", "0:9-1");

        assertThat(run.exitCode).isEqualTo(ReplayCommand.USAGE);
        assertThat(run.err).contains("replay.filter.offset.ranges").contains("starts after it ends");
    }

    @Test
    void refusesToWriteToHeaderChosenDestinationsWithoutAnAllowListAndSaysToDryRunFirst(LocalKafka kafka) {
        String dlq = CliFixtures.stockConnectDlq(kafka, "noallow");

        Run run = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq,
                "--replay-id", "noallow-1");

        assertThat(run.exitCode).isEqualTo(ReplayCommand.USAGE);
        assertThat(run.err).contains("replay.destinations.allowed").contains("dry run");
        assertThat(TopicReader.readCommitted(kafka, "noallow-input", DEADLINE)).isEmpty();
        assertThat(CliFixtures.progress(kafka, "noallow-1")).isEmpty();
    }

    @Test
    void replayKilledMidWayAndRestartedWritesEveryRecordExactlyOnce(LocalKafka kafka) throws Exception {
        String dlq = CliFixtures.sinkDlq(kafka, "kill", 1000, i -> new RecordTooLargeException("too large"));
        String[] args = {"replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--replay-id",
            "kill-1", "--batch-size", "5", "--destinations-allowed", "kill-output"};

        Process first = childJvm(args, logs.resolve("first.log"));
        try {
            ReplayProgress atKill = Await.value("the first run to commit 100 replayed records", DEADLINE, () ->
                    CliFixtures.progress(kafka, "kill-1").filter(p -> p.counts().replayed() >= 100).orElse(null));
            first.destroyForcibly();
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(CliFixtures.progress(kafka, "kill-1").orElseThrow().state())
                    .as("killed before the end, after %s", atKill.counts()).isEqualTo(ReplayState.RUNNING);
        } finally {
            first.destroyForcibly();
        }

        Process second = childJvm(args, logs.resolve("second.log"));
        try {
            assertThat(second.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("second run ends").isTrue();
            assertThat(second.exitValue()).as(Files.readString(logs.resolve("second.log"))).isZero();
        } finally {
            second.destroyForcibly();
        }

        List<ConsumerRecord<byte[], byte[]>> output = TopicReader.readCommitted(kafka, "kill-output", DEADLINE);
        Map<String, Long> perKey = output.stream().collect(Collectors.groupingBy(
                r -> new String(r.key(), StandardCharsets.UTF_8), Collectors.counting()));
        assertThat(perKey).as("every key exactly once").hasSize(1000).allSatisfy((key, n) -> assertThat(n).isOne());
        ReplayProgress done = CliFixtures.progress(kafka, "kill-1").orElseThrow();
        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().replayed()).isEqualTo(1000);
        assertThat(Files.readString(logs.resolve("second.log"))).contains("replayed                1000");
        assertThat(output).allSatisfy(r -> assertThat(
                new String(r.headers().lastHeader(DeadLetterHeaders.REPLAY_COUNT).value(), StandardCharsets.UTF_8))
                .isEqualTo("1"));
    }

    @Test
    void aSecondInstanceWithTheSameIdTakesTheReplayOverAndTheFirstExitsSayingSo(LocalKafka kafka) throws Exception {
        String dlq = CliFixtures.sinkDlq(kafka, "takeover", 2000, i -> new RecordTooLargeException("too large"));
        String[] args = {"replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--replay-id",
            "takeover-1", "--batch-size", "2", "--destinations-allowed", "takeover-output"};
        Path firstLog = logs.resolve("first.log");

        Process first = childJvm(args, firstLog);
        Run second;
        try {
            Await.value("the first instance to commit 20 replayed records", DEADLINE, () ->
                    CliFixtures.progress(kafka, "takeover-1").filter(p -> p.counts().replayed() >= 20).orElse(null));

            second = inProcess(args);

            assertThat(first.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the first instance ends").isTrue();
            assertThat(first.exitValue()).as(Files.readString(firstLog)).isEqualTo(ReplayCommand.FAILED);
        } finally {
            first.destroyForcibly();
        }
        assertThat(Files.readString(firstLog)).contains("Replay takeover-1 stopped: another instance with --replay-id"
                + " takeover-1 took it over and resumes from the committed progress").doesNotContain("run again");
        assertThat(second.exitCode).as(second.out + second.err).isEqualTo(ReplayCommand.DONE);
        assertThat(second.out).contains("Replay takeover-1 of " + dlq + ": DONE").contains("replayed                2000");
        Map<String, Long> perKey = TopicReader.readCommitted(kafka, "takeover-output", DEADLINE).stream().collect(
                Collectors.groupingBy(r -> new String(r.key(), StandardCharsets.UTF_8), Collectors.counting()));
        assertThat(perKey).as("every key exactly once").hasSize(2000).allSatisfy((key, n) -> assertThat(n).isOne());
    }

    @Test
    void aReplayOverlappingOneAKilledProcessLeftRunningIsRefusedNamingItUntilThatOneIsCancelled(LocalKafka kafka)
            throws Exception {
        String dlq = CliFixtures.sinkDlq(kafka, "overlap", 1000, i -> new RecordTooLargeException("too large"));
        Path shortTransactions = logs.resolve("short-transactions.properties");
        Files.writeString(shortTransactions, "transaction.timeout.ms=10000\n");
        Process first = childJvm(new String[] {"replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq,
            "--replay-id", "overlap-1", "--batch-size", "5", "--destinations-allowed", "overlap-output",
            "--command-config", shortTransactions.toString()}, logs.resolve("first.log"));
        try {
            Await.value("the first replay to commit 100 replayed records", DEADLINE, () ->
                    CliFixtures.progress(kafka, "overlap-1").filter(p -> p.counts().replayed() >= 100).orElse(null));
            first.destroyForcibly();
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            first.destroyForcibly();
        }

        Run refused = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--replay-id",
                "overlap-2", "--offset-range", "0:900-999", "--destinations-allowed", "overlap-output");

        assertThat(refused.exitCode).as(refused.out + refused.err).isEqualTo(ReplayCommand.FAILED);
        assertThat(refused.err).contains("Replay overlap-2 of overlap-dlq was not started: replay overlap-1 of the"
                + " same topic is RUNNING").contains("resume it (bin/quarantine replay --dlq overlap-dlq --replay-id"
                + " overlap-1").contains("--replay-id overlap-1 --cancel");
        assertThat(CliFixtures.progress(kafka, "overlap-2")).as("nothing committed").isEmpty();

        Run cancel = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--replay-id",
                "overlap-1", "--cancel");
        Run after = inProcess("replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlq, "--replay-id",
                "overlap-3", "--destinations-allowed", "overlap-output");

        assertThat(cancel.exitCode).as(cancel.out + cancel.err).isEqualTo(ReplayCommand.DONE);
        assertThat(cancel.out).contains("Replay overlap-1 of " + dlq + ": CANCELLED");
        assertThat(after.exitCode).as(after.out + after.err).isEqualTo(ReplayCommand.DONE);
        ReplayProgress cancelled = CliFixtures.progress(kafka, "overlap-1").orElseThrow();
        assertThat(CliFixtures.progress(kafka, "overlap-3").orElseThrow().counts().alreadyReplayed())
                .as("what the cancelled replay wrote").isEqualTo(cancelled.counts().replayed());
        Map<String, Long> perKey = TopicReader.readCommitted(kafka, "overlap-output", DEADLINE).stream().collect(
                Collectors.groupingBy(r -> new String(r.key(), StandardCharsets.UTF_8), Collectors.counting()));
        assertThat(perKey).as("every key exactly once").hasSize(1000).allSatisfy((key, n) -> assertThat(n).isOne());
    }

    /** The records of {@code topic} a read_committed reader sees; 0 when it does not exist (another test owns it). */
    private static long committedCount(LocalKafka kafka, String topic) throws Exception {
        try (Admin admin = kafka.admin()) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic)) {
                return 0;
            }
        }
        return TopicReader.readCommitted(kafka, topic, DEADLINE).size();
    }

    private static Run inProcess(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = new CommandLine(new QuarantineCommand()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    private static Process childJvm(String[] args, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), QuarantineCommand.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private record Run(int exitCode, String out, String err) {
    }

}
