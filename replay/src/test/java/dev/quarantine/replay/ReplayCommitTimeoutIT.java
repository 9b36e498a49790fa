package dev.quarantine.replay;

import static dev.quarantine.replay.DeadLetterFixtures.committed;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
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

    /** The held commit completes before the caller steps again: nothing of its batch is replayed twice. */
    @Test
    void replaysEachLetterOnceWhenTheCommitThatTimedOutCompletesBeforeTheNextStep() {
        String prefix = "late-commit";
        String dlq = CliFixtures.sinkDlq(kafka, prefix, LETTERS, i -> new RecordTooLargeException("too large"));
        try (ReplayEngine engine = engine(prefix, dlq)) {
            commitTimesOutInTheSecondStep(engine, prefix);

            proxy.release();
            Await.until("the late commit completed", DEADLINE,
                    () -> state(prefix) == TransactionState.COMPLETE_COMMIT);

            assertThat(stepToTheEnd(engine).counts().replayed()).isEqualTo(LETTERS);
        }
        assertReplayedOnce(prefix);
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
        try (ReplayEngine engine = engine(prefix, dlq)) {
            commitTimesOutInTheSecondStep(engine, prefix);

            Throwable again = catchThrowable(engine::step);
            assertThat(again).as("the step after the timeout: retried by its callers, or done").satisfiesAnyOf(
                    e -> assertThat(e).isNull(), e -> assertThat(e).isInstanceOf(RetriableException.class));

            proxy.release();
            assertThat(stepToTheEnd(engine).counts().replayed()).isEqualTo(LETTERS);
        }
        assertReplayedOnce(prefix);
    }

    /** A write engine of replay {@code <prefix>-1}, five letters a transaction, a commit given up after 8 s. */
    private ReplayEngine engine(String prefix, String dlq) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, prefix + "-1");
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, dlq);
        settings.put(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, prefix + "-output");
        settings.put(ReplayConfig.BATCH_SIZE_CONFIG, "5");
        settings.put("max.block.ms", "8000");
        return new ReplayEngine(new ReplayConfig(settings), ReplayEngine.Mode.WRITE, ReplayListener.NONE);
    }

    /**
     * Starts the replay and steps: the first five letters commit; then holds the coordinator's {@code EndTxn} and
     * steps: the commit of the next five times out (the step throws a RetriableException) and the transaction stays
     * open on the coordinator.
     */
    private void commitTimesOutInTheSecondStep(ReplayEngine engine, String prefix) {
        engine.start();
        ReplayProgress first = engine.step();
        assertThat(first.counts().replayed()).as("the first batch committed").isEqualTo(5);
        int heldBefore = proxy.heldRequests();
        proxy.hold(ApiKeys.END_TXN);

        Throwable timedOut = catchThrowable(engine::step);

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

    private void assertReplayedOnce(String prefix) {
        Map<String, Long> perKey = committed(kafka, prefix + "-output").stream()
                .collect(Collectors.groupingBy(r -> text(r.key()), Collectors.counting()));
        assertThat(perKey).as("each dead letter replayed once, read_committed").hasSize(LETTERS)
                .allSatisfy((key, n) -> assertThat(n).isOne());
    }
}
