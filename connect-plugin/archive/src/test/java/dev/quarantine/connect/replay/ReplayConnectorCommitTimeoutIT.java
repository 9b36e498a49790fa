package dev.quarantine.connect.replay;

import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.replay.CliFixtures;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayProgressReader;
import dev.quarantine.replay.ReplayState;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.HoldingProxy;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.ProxiedBroker;
import dev.quarantine.sandbox.TopicReader;

/**
 * The replay connector's task whose commit gets no answer in time, on a real worker loading the plugin archive: every
 * client of the worker reaches the broker through a proxy ({@link ProxiedBroker}) that holds the coordinator's
 * {@code EndTxn} of one of the replay's transactions past the producer's {@code max.block.ms}. Kafka's producer then
 * throws TimeoutException from {@code commitTransaction} and refuses anything but that call again; the task must
 * step again (the commit retried, still held: retriable again), not fail, and once the request is let go the replay
 * runs to DONE with each dead letter written once. The replay engine's side of it is {@code ReplayCommitTimeoutIT};
 * this is the connector's {@code ReplayRun} around it, as a worker runs it.
 */
class ReplayConnectorCommitTimeoutIT {

    private static final Duration DEADLINE = Duration.ofSeconds(120);
    private static final int LETTERS = 10;
    private static final String RETRIED = "a step failed (its transaction aborted, or its commit still awaiting its"
            + " answer); trying again: org.apache.kafka.common.errors.TimeoutException";

    @RegisterExtension
    static final ProxiedBroker cluster = new ProxiedBroker();

    private static LocalConnect worker;

    @BeforeAll
    static void startWorker() {
        worker = LocalConnect.create(cluster.kafka(), BuiltPlugin.PLUGIN_PATH, BuiltPlugin.workerClasspath()).start();
    }

    @AfterAll
    static void stopWorker() {
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void aTaskWhoseCommitTimesOutStepsAgainAndReplaysEachLetterOnce() throws IOException {
        LocalKafka kafka = cluster.kafka();
        HoldingProxy proxy = cluster.proxy();
        String name = "held-commit-connector";
        String dlq = CliFixtures.sinkDlq(kafka, name, LETTERS, i -> new RecordTooLargeException("too large"));
        worker.createConnector(name, Map.of(
                "connector.class", DeadLetterReplayConnector.class.getName(),
                "tasks.max", "1",
                ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, name + "-output",
                // a letter a second, each in a transaction of its own: time to hold the end of the next one
                ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "1",
                // a request without an answer is sent again after 3 s, a commit given up after 8 s
                "request.timeout.ms", "3000",
                "max.block.ms", "8000"));

        ReplayProgress first = Await.value("the replay's first transaction committed", DEADLINE,
                () -> progress(kafka, name).filter(p -> p.counts().replayed() > 0).orElse(null));
        int heldBefore = proxy.heldRequests();
        proxy.hold(ApiKeys.END_TXN);
        assertThat(first.counts().replayed()).as("the premise: the replay not done before the hold")
                .isLessThan(LETTERS);

        Await.until(() -> "the task stepping again after its commit timed out, twice, or failing (its log: "
                + worker.logFile() + ")", DEADLINE, () -> retries() >= 2 || !running(name));
        assertThat(running(name)).as("still running while its commit is held: %s", worker.status(name)).isTrue();
        assertThat(proxy.heldRequests()).as("the premise: a commit's EndTxn held").isGreaterThan(heldBefore);

        proxy.release();
        ReplayProgress done = Await.value("the replay DONE once the commit's answer came", DEADLINE,
                () -> progress(kafka, name).filter(ReplayProgress::finished).orElse(null));

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().replayed()).isEqualTo(LETTERS);
        assertThat(running(name)).as("%s", worker.status(name)).isTrue();
        Map<String, Long> perKey = TopicReader.readCommitted(kafka, name + "-output", Duration.ofSeconds(30)).stream()
                .collect(Collectors.groupingBy(r -> text(r.key()), Collectors.counting()));
        assertThat(perKey).as("each dead letter replayed once, read_committed").hasSize(LETTERS)
                .allSatisfy((key, n) -> assertThat(n).isOne());
        worker.deleteConnector(name);
    }

    private static boolean running(String connector) {
        return LocalConnect.isRunning(worker.status(connector), 1);
    }

    private static Optional<ReplayProgress> progress(LocalKafka kafka, String replayId) {
        try (ReplayProgressReader reader = new ReplayProgressReader(Map.of(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers()), "quarantine-replay-progress", Duration.ofSeconds(30))) {
            return reader.latest(replayId);
        }
    }

    /** How many times the task logged that it steps again after a commit without an answer. */
    private static long retries() {
        try {
            return Files.readAllLines(worker.logFile(), StandardCharsets.UTF_8).stream()
                    .filter(line -> line.contains(RETRIED)).count();
        } catch (IOException e) {
            throw new IllegalStateException("could not read the worker's log " + worker.logFile(), e);
        }
    }
}
