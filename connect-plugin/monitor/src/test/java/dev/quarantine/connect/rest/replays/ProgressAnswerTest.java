package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayState;
import dev.quarantine.replay.WrittenOffsets;

/** The rows of {@link ProgressAnswer}, one test per row. */
class ProgressAnswerTest {

    private static final String TOPIC = "orders.dlq";
    private static final String ID = "replay-1";
    private static final Map<String, String> REPLAY_OF_TOPIC = Map.of("connector.class", Replays.CONNECTOR_CLASS,
            ReplayConfig.DLQ_TOPIC_CONFIG, TOPIC);

    private final AtomicInteger asked = new AtomicInteger();

    @Test
    void aCommittedProgressOfTheTopicIsTheAnswerWithoutAskingTheWorker() {
        for (boolean startedHere : new boolean[] {true, false}) {
            Map<String, Object> answer = ProgressAnswer.of(TOPIC, ID, Optional.of(progress(TOPIC,
                    ReplayState.RUNNING)), startedHere, worker(() -> Optional.of(REPLAY_OF_TOPIC)));

            assertThat(answer).containsEntry("state", "RUNNING").containsEntry("offsetsRead", 3L);
        }
        assertThat(asked).hasValue(0);
    }

    @Test
    void aCommittedProgressOfAnotherTopicIsA404WithoutAskingTheWorker() {
        assertThatThrownBy(() -> ProgressAnswer.of(TOPIC, ID, Optional.of(progress("other.dlq", ReplayState.DONE)),
                true, worker(() -> Optional.of(REPLAY_OF_TOPIC)))).isInstanceOfSatisfying(MonitorException.class,
                        e -> assertThat(e.status()).isEqualTo(404));
        assertThat(asked).hasValue(0);
    }

    @Test
    void aReplayStartedHereWithoutProgressIsStartingWithoutAskingTheWorkerWhichMayBeRebalancing() {
        Map<String, Object> answer = ProgressAnswer.of(TOPIC, ID, Optional.empty(), true, worker(() -> {
            throw MonitorException.fromWorker(500, "Request cannot be completed because a rebalance is expected");
        }));

        assertThat(answer).containsEntry("state", "STARTING").containsEntry("id", ID);
        assertThat(asked).hasValue(0);
    }

    @Test
    void aReplayStartedElsewhereWithoutProgressIsStartingWhenTheWorkerHasItsConnector() {
        assertThat(ProgressAnswer.of(TOPIC, ID, Optional.empty(), false, worker(() -> Optional.of(REPLAY_OF_TOPIC))))
                .containsEntry("state", "STARTING");
        assertThat(asked).hasValue(1);
    }

    @Test
    void aReplayStartedElsewhereWithoutProgressIsA404WhenTheWorkerHasNoSuchReplayConnector() {
        Map<String, String> sink = Map.of("connector.class", "dev.quarantine.connect.sink.Other",
                ReplayConfig.DLQ_TOPIC_CONFIG, TOPIC);
        for (Optional<Map<String, String>> connector : List.of(Optional.<Map<String, String>>empty(),
                Optional.of(sink))) {
            assertThatThrownBy(() -> ProgressAnswer.of(TOPIC, ID, Optional.empty(), false, worker(() -> connector)))
                    .isInstanceOfSatisfying(MonitorException.class, e -> assertThat(e.status()).isEqualTo(404));
        }
    }

    @Test
    void aReplayStartedElsewhereWithoutProgressIsA503NamingTheCauseWhileTheWorkerCannotAnswer() {
        assertThatThrownBy(() -> ProgressAnswer.of(TOPIC, ID, Optional.empty(), false, worker(() -> {
            throw MonitorException.fromWorker(500, "Request cannot be completed because a rebalance is expected");
        }))).isInstanceOfSatisfying(MonitorException.class, e -> {
            assertThat(e.status()).isEqualTo(503);
            assertThat(e.publicMessage()).contains("rebalance");
        });
    }

    private Supplier<Optional<Map<String, String>>> worker(Supplier<Optional<Map<String, String>>> answer) {
        return () -> {
            asked.incrementAndGet();
            return answer.get();
        };
    }

    private static ReplayProgress progress(String topic, ReplayState state) {
        Instant now = Instant.now();
        return new ReplayProgress(ID, topic, Uuid.randomUuid(), state, new TreeMap<>(Map.of(0, 0L)),
                new TreeMap<>(Map.of(0, 6L)), new TreeMap<>(Map.of(0, 3L)), ReplayCounts.ZERO, WrittenOffsets.NONE,
                now, now);
    }
}
