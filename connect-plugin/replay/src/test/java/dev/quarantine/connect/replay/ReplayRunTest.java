package dev.quarantine.connect.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayTakenOverException;
import dev.quarantine.replay.WrittenOffsets;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayState;

class ReplayRunTest {

    @Test
    void stepsWhileTheRangeIsNotDoneAndStopsWhenItIs() {
        ReplayRun run = run(progress(ReplayState.RUNNING, 0), steps(progress(ReplayState.RUNNING, 5),
                progress(ReplayState.DONE, 10)));
        run.start();

        assertThat(run.step()).isTrue();
        assertThat(run.step()).isFalse();
        assertThat(run.step()).as("nothing more after done").isFalse();
        assertThat(run.progress().state()).isEqualTo(ReplayState.DONE);
    }

    @Test
    void aReplayAlreadyFinishedWhenItStartsWritesNothing() {
        ReplayRun run = run(progress(ReplayState.CANCELLED, 3), () -> {
            throw new AssertionError("no step after a finished start");
        });
        run.start();

        assertThat(run.step()).isFalse();
    }

    @Test
    void aRetriableErrorStepsAgain() {
        ReplayRun run = run(progress(ReplayState.RUNNING, 0), steps(new TimeoutException("slow broker"),
                progress(ReplayState.DONE, 10)));
        run.start();

        assertThat(run.step()).isTrue();
        assertThat(run.step()).isFalse();
    }

    @Test
    void aFencedStepFailsTheTaskAsAZombie() {
        for (RuntimeException fenced : new RuntimeException[] {
            new ReplayTakenOverException("r1", new ProducerFencedException("newer epoch")),
            new ReplayTakenOverException("r1", new InvalidProducerEpochException("old epoch"))}) {
            ReplayRun run = run(progress(ReplayState.RUNNING, 0), steps(fenced));
            run.start();

            assertThatThrownBy(run::step).isInstanceOf(ConnectException.class).hasCause(fenced)
                    .hasMessageContaining("taken over by a newer instance");
        }
    }

    @Test
    void anyOtherErrorFailsTheTaskNamingTheReplayAndKeepsItsProgress() {
        KafkaException broken = new KafkaException("broken");
        ReplayRun run = run(progress(ReplayState.RUNNING, 4), steps(broken));
        run.start();

        assertThatThrownBy(run::step).isInstanceOf(ConnectException.class).hasCause(broken)
                .hasMessageContaining("Replay r1 of dlq failed");
        assertThat(run.progress().offsetsRead()).isEqualTo(4);
    }

    private static ReplayRun run(ReplayProgress started, Supplier<ReplayProgress> step) {
        return new ReplayRun(() -> started, step);
    }

    /** Answers each of {@code outcomes} in turn: a progress, or an exception thrown. */
    private static Supplier<ReplayProgress> steps(Object... outcomes) {
        Deque<Object> queue = new ArrayDeque<>(java.util.List.of(outcomes));
        return () -> {
            Object next = queue.removeFirst();
            if (next instanceof RuntimeException e) {
                throw e;
            }
            return (ReplayProgress) next;
        };
    }

    private static ReplayProgress progress(ReplayState state, long read) {
        Instant now = Instant.parse("2026-12-01T00:00:00Z");
        return new ReplayProgress("r1", "dlq", Uuid.ZERO_UUID, state, new TreeMap<>(Map.of(0, 0L)),
                new TreeMap<>(Map.of(0, 10L)), new TreeMap<>(Map.of(0, read)), ReplayCounts.ZERO, WrittenOffsets.NONE,
                now, now);
    }
}
