package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.Fencer.Fence;

/** The harness's order (design 5.2): labels in script order across threads, scripted answers, the clock. */
class ScriptTest {

    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    @Test
    void callsRunInTheScriptedOrderWhateverTheThreadsDo() {
        Script script = Script.builder().then("T1.claim", "T0.begin", "T1.fence", "T0.commit", "T1.read0").build();

        script.run(Script.parties(
                "T0", () -> {
                    record(script, "T0.begin");
                    record(script, "T0.commit");
                },
                "T1", () -> {
                    record(script, "T1.claim");
                    record(script, "T1.fence");
                    record(script, "T1.read0");
                }));

        assertThat(calls).containsExactly("T1.claim", "T0.begin", "T1.fence", "T0.commit", "T1.read0");
        assertThat(script.done()).isEqualTo(calls);
    }

    @Test
    void aLabelThatIsNotItsPartysNextStepFailsWithTheLabelsSoFar() {
        Script script = Script.builder().then("T0.begin", "T1.claim", "T0.commit").build();

        assertThatThrownBy(() -> script.run(Script.parties(
                "T0", () -> {
                    record(script, "T0.begin");
                    record(script, "T0.abort");
                },
                "T1", () -> record(script, "T1.claim"))))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("T0 reached T0.abort but its next scripted step is T0.commit")
                .hasMessageContaining("done so far: [T0.begin");
    }

    @Test
    void aPartyEndingWithItsStepsLeftFailsInsteadOfLeavingTheOthersBlocked() {
        Script script = Script.builder().then("T0.begin", "T0.commit", "T1.claim").build();

        assertThatThrownBy(() -> script.run(Script.parties(
                "T0", () -> record(script, "T0.begin"),
                "T1", () -> record(script, "T1.claim"))))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("T0 ended with T0.commit still to do")
                .hasMessageContaining("done so far: [T0.begin]");
    }

    @Test
    void aScriptedAnswerInsteadOfTheModelsDoesNotCallTheModel() {
        Fence timedOut = new Fence.Transient(new TimeoutException("fence"));
        Script script = Script.builder().instead("T1.fence", timedOut).build();
        AtomicInteger modelCalls = new AtomicInteger();
        List<Fence> answers = new ArrayList<>();

        script.run(parties("T1", () -> answers.add(script.call("T1.fence", () -> {
            modelCalls.incrementAndGet();
            return new Fence.Done(Map.of());
        }))));

        assertThat(answers).containsExactly(timedOut);
        assertThat(modelCalls).hasValue(0);
    }

    @Test
    void anAppliedAnswerCallsTheModelAndReplacesItsAnswer() {
        // a fence that timed out after it was applied; then the same label again, answered by the model
        Fence timedOut = new Fence.Transient(new TimeoutException("fence"));
        Script script = Script.builder().applied("T1.fence", timedOut).then("T1.fence").build();
        AtomicInteger modelCalls = new AtomicInteger();
        List<Fence> answers = new ArrayList<>();

        script.run(parties("T1", () -> {
            for (int i = 0; i < 2; i++) {
                answers.add(script.call("T1.fence", () -> {
                    modelCalls.incrementAndGet();
                    return new Fence.Done(Map.of());
                }));
            }
        }));

        assertThat(answers).containsExactly(timedOut, new Fence.Done(Map.of()));
        assertThat(modelCalls).hasValue(2);
    }

    @Test
    void theClockMovesOnlyWhenTheScriptSaysSo() {
        Script script = Script.builder().then("T1.read1", "clock.advance", "T1.read0").build();
        Instant start = script.clock().instant();
        List<Instant> seen = Collections.synchronizedList(new ArrayList<>());

        script.run(Script.parties(
                "T1", () -> {
                    script.call("T1.read1", () -> seen.add(script.clock().instant()));
                    script.call("T1.read0", () -> seen.add(script.clock().instant()));
                },
                "clock", () -> script.advance("clock.advance", Duration.ofSeconds(45))));

        assertThat(seen).containsExactly(start, start.plusSeconds(45));
    }

    @Test
    void aFailingCallFailsTheScriptNamingItsLabel() {
        Script script = Script.builder().then("T0.commit", "T1.read0").build();

        assertThatThrownBy(() -> script.run(Script.parties(
                "T0", () -> script.call("T0.commit", () -> {
                    throw new IllegalStateException("broken model");
                }),
                "T1", () -> record(script, "T1.read0"))))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("T0.commit threw java.lang.IllegalStateException: broken model");
    }

    private void record(Script script, String label) {
        script.call(label, () -> calls.add(label));
    }

    private static Map<String, Runnable> parties(String party, Runnable body) {
        return Map.of(party, body);
    }
}
