package dev.quarantine.replay.cli;

import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.replay.RealDeadLetterWriters;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;

/**
 * {@code bin/quarantine replay --dlq <topic>-dlt}, the real script as a user runs it, on dead letters written by
 * Spring Kafka's own {@code DeadLetterPublishingRecoverer} (spring-kafka 4.0.8): each record goes back once, to its
 * original partition, with its original timestamp and timestamp type and its own headers, without Spring's
 * {@code kafka_dlt-*} headers.
 */
@ExtendWith(LocalKafkaExtension.class)
class SpringDeadLettersCliIT {

    private static final Duration DEADLINE = Duration.ofSeconds(180);
    private static final int LETTERS = 10;
    private static final Path SCRIPT = Path.of(System.getProperty("quarantine.bin", "../bin/quarantine"));

    @TempDir
    Path logs;

    @Test
    void theScriptReplaysSpringsDeadLettersOnceToTheirPartitionWithTheirTimeAndWithoutSpringsHeaders(LocalKafka kafka)
            throws Exception {
        String orders = "cliorders";
        String dlt = orders + "-dlt";
        kafka.createTopic(orders, 3, Map.of());
        kafka.createTopic(dlt, 3, Map.of());
        List<ConsumerRecord<byte[], byte[]>> failed = RealDeadLetterWriters.oldOrders(kafka, orders, LETTERS, DEADLINE);
        RealDeadLetterWriters.spring(kafka, failed, "order-service", new IllegalStateException("bad order"));
        assertThat(TopicReader.readCommitted(kafka, dlt, DEADLINE)).hasSize(LETTERS);

        Path log = logs.resolve("quarantine.log");
        int exit = runScript(log, "replay", "--bootstrap-server", kafka.bootstrapServers(), "--dlq", dlt,
                "--replay-id", "spring-cli-1", "--destinations-allowed", orders);

        String output = Files.readString(log);
        assertThat(exit).as(output).isEqualTo(ReplayCommand.DONE);
        assertThat(output).contains("Replay spring-cli-1 of " + dlt + ": DONE").contains("replayed                10");
        List<ConsumerRecord<byte[], byte[]>> replayed = TopicReader.readCommitted(kafka, orders, DEADLINE).stream()
                .filter(r -> failed.stream().noneMatch(f -> f.partition() == r.partition() && f.offset() == r.offset()))
                .toList();
        assertThat(replayed.stream().map(r -> text(r.key()))).as("each dead letter once")
                .containsExactlyInAnyOrderElementsOf(failed.stream().map(r -> text(r.key())).toList());
        for (ConsumerRecord<byte[], byte[]> back : replayed) {
            ConsumerRecord<byte[], byte[]> original = failed.stream()
                    .filter(f -> text(f.key()).equals(text(back.key()))).findFirst().orElseThrow();
            assertThat(back.partition()).as("partition of %s", text(back.key())).isEqualTo(original.partition());
            assertThat(back.timestamp()).as("timestamp of %s", text(back.key())).isEqualTo(original.timestamp());
            assertThat(back.timestampType()).isEqualTo(original.timestampType());
            assertThat(back.value()).isEqualTo(original.value());
            assertThat(text(back.headers().lastHeader("trace-id").value())).isEqualTo(
                    text(original.headers().lastHeader("trace-id").value()));
            for (Header header : back.headers()) {
                assertThat(header.key()).as("a header of replayed %s", text(back.key())).doesNotStartWith("kafka_dlt-");
            }
        }
    }

    /** Runs {@code bin/quarantine} with {@code args} through bash, as a user does; its exit code. */
    private static int runScript(Path log, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        String repository = System.getProperty("maven.repo.local");
        if (repository != null) {
            // should the script build the module first, it builds with the repository this build uses
            builder.environment().put("MAVEN_OPTS", "-Dmaven.repo.local=" + repository);
        }
        Process process = builder.start();
        try {
            assertThat(process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("bin/quarantine ends").isTrue();
            return process.exitValue();
        } finally {
            process.destroyForcibly();
        }
    }
}
