package dev.quarantine.connect.replay;

import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
    private static final String NAME = "held-commit-connector";
    /** What the task logs when it steps again after its commit got no answer in time. */
    private static final String RETRIED = "Replay " + NAME + ": a step failed (its transaction aborted, or its commit"
            + " still awaiting its answer); trying again: org.apache.kafka.common.errors.TimeoutException";
    /** What the engine logs when the retried commit is answered: committed, not aborted or replaced. */
    private static final String LATE_COMMIT = "Replay " + NAME + ": the commit whose answer had not come in time is"
            + " committed";
    /** What it logs when it gives a producer up and resumes with a new one (the pending commit not retried). */
    private static final String NEW_PRODUCER = "resuming with a new producer";

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
    void aTaskWhoseCommitTimesOutStepsAgainAndReplaysEachLetterOnce() {
        LocalKafka kafka = cluster.kafka();
        HoldingProxy proxy = cluster.proxy();
        String dlq = CliFixtures.sinkDlq(kafka, NAME, LETTERS, i -> new RecordTooLargeException("too large"));
        worker.createConnector(NAME, Map.of(
                "connector.class", DeadLetterReplayConnector.class.getName(),
                "tasks.max", "1",
                ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq,
                ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, NAME + "-output",
                // a letter a second, each in a transaction of its own: time to hold the end of the next one
                ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "1",
                // a request without an answer is sent again after 3 s, a commit given up after 8 s
                "request.timeout.ms", "3000",
                "max.block.ms", "8000",
                // the held transaction is not aborted by the coordinator's timeout while the test waits
                "transaction.timeout.ms", "300000"));

        Await.until("the replay's first transaction committed", DEADLINE,
                () -> CliFixtures.progress(kafka, NAME).filter(p -> p.counts().replayed() > 0).isPresent());
        int heldBefore = proxy.heldRequests();
        long retriedBefore = count(RETRIED);
        proxy.hold(ApiKeys.END_TXN);
        Await.until("an EndTxn held (or was the replay done before the hold?)", DEADLINE,
                () -> proxy.heldRequests() > heldBefore);
        assertThat(CliFixtures.progress(kafka, NAME)).as("the premise: a commit held mid-way, the replay not done")
                .get().extracting(ReplayProgress::finished).isEqualTo(false);

        Await.until(() -> "the task stepping again after its commit timed out, twice, or failing (its log: "
                + worker.logFile() + ")", DEADLINE, () -> count(RETRIED) >= retriedBefore + 2 || !running(NAME));
        assertThat(running(NAME)).as("still running while its commit is held: %s", worker.status(NAME)).isTrue();

        proxy.release();
        ReplayProgress done = Await.value("the replay DONE once the commit's answer came", DEADLINE,
                () -> CliFixtures.progress(kafka, NAME).filter(ReplayProgress::finished).orElse(null));

        assertThat(done.state()).isEqualTo(ReplayState.DONE);
        assertThat(done.counts().replayed()).isEqualTo(LETTERS);
        assertThat(done.counts().deadLetteredAgain() + done.counts().parked()).isZero();
        assertThat(running(NAME)).as("%s", worker.status(NAME)).isTrue();
        assertThat(count(LATE_COMMIT)).as("the held commit retried and committed (the worker's log)").isOne();
        assertThat(count(NEW_PRODUCER)).as("no producer given up (the worker's log)").isZero();
        Map<String, Long> perKey = TopicReader.readCommitted(kafka, NAME + "-output", Duration.ofSeconds(30)).stream()
                .collect(Collectors.groupingBy(r -> text(r.key()), Collectors.counting()));
        assertThat(perKey).as("each dead letter replayed once, read_committed")
                .containsOnlyKeys(IntStream.range(0, LETTERS).mapToObj(i -> NAME + "-" + i).toArray(String[]::new))
                .allSatisfy((key, n) -> assertThat(n).isOne());
        worker.deleteConnector(NAME);
    }

    private static boolean running(String connector) {
        return LocalConnect.isRunning(worker.status(connector), 1);
    }

    /** How many lines of the worker's log contain {@code text}. */
    private static long count(String text) {
        return worker.logLines().stream().filter(line -> line.contains(text)).count();
    }
}
