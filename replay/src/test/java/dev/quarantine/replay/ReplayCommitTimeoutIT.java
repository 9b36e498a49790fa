package dev.quarantine.replay;

import static dev.quarantine.replay.DeadLetterFixtures.committed;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.HoldingProxy;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.ProxiedBroker;

/**
 * A replay whose commit times out on a real broker: a proxy in front of it ({@link HoldingProxy}, the broker's
 * advertised listener) holds the {@code EndTxn} of the replay's second transaction past the producer's
 * {@code max.block.ms}, so {@code commitTransaction} throws Kafka's TimeoutException, a RetriableException, while the
 * coordinator has not decided. Its callers (the CLI, the replay connector's task) step again on a RetriableException,
 * as {@link ReplayEngine#step} asks; the held request reaches the coordinator before that step, or after it. Each dead
 * letter replayed once, read {@code read_committed}, either way.
 */
class ReplayCommitTimeoutIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int LETTERS = 10;

    @RegisterExtension
    static final ProxiedBroker cluster = new ProxiedBroker();

    private final HoldingProxy proxy = cluster.proxy();
    private final LocalKafka kafka = cluster.kafka();
    private final Admin admin = cluster.admin();

    /**
     * The held commit completes before the caller steps again: nothing of its batch is replayed twice, and the
     * listener hears each letter once.
     */
    @Test
    void replaysEachLetterOnceWhenTheCommitThatTimedOutCompletesBeforeTheNextStep() {
        String prefix = "late-commit";
        String dlq = CliFixtures.sinkDlq(kafka, prefix, LETTERS, i -> new RecordTooLargeException("too large"));
        List<RecordReport> heard = new CopyOnWriteArrayList<>();
        try (ReplayEngine engine = engine(prefix, dlq, heard::add)) {
            commitTimesOutInTheSecondStep(engine, prefix);

            proxy.release();
            Await.until("the late commit completed", DEADLINE,
                    () -> state(prefix) == TransactionState.COMPLETE_COMMIT);

            assertThat(stepToTheEnd(engine).counts().replayed()).isEqualTo(LETTERS);
        }
        assertReplayedOnce(prefix, LETTERS);
        assertThat(heard).as("the listener hears each letter once, after its commit")
                .extracting(RecordReport::position).doesNotHaveDuplicates().hasSize(LETTERS);
        assertThat(heard).extracting(RecordReport::outcome).containsOnly(Outcome.REPLAYED);
    }

    /**
     * The replay is cancelled after the held commit completed: the CANCELLED progress is built on what that commit
     * wrote (ten letters), not on the progress before it, whose written ranges would let a later replay of the topic
     * replay its five letters again.
     */
    @Test
    void cancelsOnTheProgressTheCommitThatTimedOutWroteOnceItCompleted() {
        String prefix = "cancel-late";
        String dlq = CliFixtures.sinkDlq(kafka, prefix, 15, i -> new RecordTooLargeException("too large"));
        try (ReplayEngine engine = engine(prefix, dlq, ReplayListener.NONE)) {
            commitTimesOutInTheSecondStep(engine, prefix);
            proxy.release();
            Await.until("the late commit completed", DEADLINE,
                    () -> state(prefix) == TransactionState.COMPLETE_COMMIT);

            ReplayProgress cancelled = engine.cancel();

            assertThat(cancelled.state()).isEqualTo(ReplayState.CANCELLED);
            assertThat(cancelled.counts().replayed()).as("the late commit's letters counted").isEqualTo(10);
        }
        try (ReplayProgressReader reader = ReplayEngineIT.reader(kafka)) {
            assertThat(reader.latest(prefix + "-1")).get().extracting(p -> p.counts().replayed()).isEqualTo(10L);
        }
        assertReplayedOnce(prefix, 10);
    }

    /**
     * The caller steps again while the timed-out commit is still held: the step must neither write the batch in a
     * transaction the late request commits nor stop the replay; once the request is let go, the replay runs to its
     * end.
     */
    @Test
    void replaysEachLetterOnceWhenTheCallerStepsAgainWhileTheCommitThatTimedOutIsHeld() {
        String prefix = "held-commit";
        String dlq = CliFixtures.sinkDlq(kafka, prefix, LETTERS, i -> new RecordTooLargeException("too large"));
        try (ReplayEngine engine = engine(prefix, dlq, ReplayListener.NONE)) {
            commitTimesOutInTheSecondStep(engine, prefix);

            Throwable again = Await.value("a step that retries the commit", DEADLINE,
                    () -> catchThrowable(engine::step)); // one whose read found no batch retries nothing
            assertThat(again).as("the commit retried, still without an answer: retriable again")
                    .isInstanceOf(RetriableException.class);

            proxy.release();
            assertThat(stepToTheEnd(engine).counts().replayed()).isEqualTo(LETTERS);
        }
        assertReplayedOnce(prefix, LETTERS);
    }

    /**
     * The replay's id is fenced from outside (as another instance's {@code initTransactions} does) while its commit
     * waits for its answer: the fence aborts the transaction, the late request is refused, and the retried commit
     * says so: the replay stops as taken over, its aborted letters nowhere.
     */
    @Test
    void stopsAsTakenOverWhenFencedWhileItsCommitWaitsForItsAnswer() throws Exception {
        String prefix = "fenced-late";
        String dlq = CliFixtures.sinkDlq(kafka, prefix, LETTERS, i -> new RecordTooLargeException("too large"));
        try (ReplayEngine engine = engine(prefix, dlq, ReplayListener.NONE)) {
            commitTimesOutInTheSecondStep(engine, prefix);
            admin.fenceProducers(List.of(ReplayEngine.TRANSACTIONAL_ID_PREFIX + prefix + "-1")).all()
                    .get(30, TimeUnit.SECONDS);
            proxy.release();

            Throwable stopped = Await.value("a step that retries the commit", DEADLINE,
                    () -> catchThrowable(engine::step));

            assertThat(stopped).isInstanceOf(ReplayTakenOverException.class)
                    .hasRootCauseInstanceOf(ProducerFencedException.class); // the retried commit's answer
        }
        assertReplayedOnce(prefix, 5);
    }

    /**
     * A write engine of replay {@code <prefix>-1}, five letters a transaction; a request is sent again after 3 s
     * without an answer (as after Kafka's 30 s by default: a held commit's {@code EndTxn} is sent twice) and a commit
     * given up after 8 s.
     */
    private ReplayEngine engine(String prefix, String dlq, ReplayListener listener) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, prefix + "-1");
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, dlq);
        settings.put(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, prefix + "-output");
        settings.put(ReplayConfig.BATCH_SIZE_CONFIG, "5");
        settings.put("max.block.ms", "8000");
        settings.put("request.timeout.ms", "3000");
        return new ReplayEngine(new ReplayConfig(settings), ReplayEngine.Mode.WRITE, listener);
    }

    /**
     * Starts the replay and steps: the first five letters commit; then holds the coordinator's {@code EndTxn} and
     * steps: the commit of the next five times out (the step throws a RetriableException) and the transaction stays
     * open on the coordinator.
     */
    private void commitTimesOutInTheSecondStep(ReplayEngine engine, String prefix) {
        engine.start();
        // a step whose read finds nothing yet writes nothing: step until one has
        ReplayProgress first = Await.value("the first batch committed", DEADLINE,
                () -> Optional.of(engine.step()).filter(p -> p.counts().replayed() > 0).orElse(null));
        assertThat(first.counts().replayed()).as("the first batch committed").isEqualTo(5);
        int heldBefore = proxy.heldRequests();
        proxy.hold(ApiKeys.END_TXN);

        Throwable timedOut = Await.value("a step that writes the next batch", DEADLINE,
                () -> catchThrowable(engine::step));

        assertThat(timedOut).as("the commit timed out").isInstanceOf(RetriableException.class);
        assertThat(proxy.heldRequests()).as("the premise: its EndTxn held").isGreaterThan(heldBefore);
        assertThat(state(prefix)).as("the premise: still open")
                .isEqualTo(TransactionState.ONGOING);
    }

    /** Steps as the CLI and the connector do: again after a RetriableException, until the replay has finished. */
    private static ReplayProgress stepToTheEnd(ReplayEngine engine) {
        ReplayProgress progress = engine.progress();
        int retries = 0;
        while (!progress.finished()) {
            try {
                progress = engine.step();
            } catch (RetriableException e) {
                assertThat(++retries).as("steps retried after %s", e.toString()).isLessThan(10);
            }
        }
        return progress;
    }

    private TransactionState state(String prefix) {
        String id = ReplayEngine.TRANSACTIONAL_ID_PREFIX + prefix + "-1";
        try {
            return admin.describeTransactions(List.of(id)).description(id).get(30, TimeUnit.SECONDS).state();
        } catch (Exception e) {
            throw new IllegalStateException("could not describe the transactions of " + id, e);
        }
    }

    private void assertReplayedOnce(String prefix, int letters) {
        Map<String, Long> perKey = committed(kafka, prefix + "-output").stream()
                .collect(Collectors.groupingBy(r -> text(r.key()), Collectors.counting()));
        assertThat(perKey).as("each dead letter replayed once, read_committed").hasSize(letters)
                .allSatisfy((key, n) -> assertThat(n).isOne());
    }
}
