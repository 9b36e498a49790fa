package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.ModelCoordinator.Version;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * {@link OffsetsOwnership} over the real {@link Ownership} of {@code offsets#0} against the model coordinator: how
 * the offsets API ends when a stage fails for now, and when another id claims a partition after it (row 16 itself is
 * {@code OwnershipHarnessTest.anOffsetsChangeClaimsAndFencesARunningZombie}).
 */
class OffsetsOwnershipTest {

    private static final TopicPartition P = new TopicPartition("orders", 3);
    private static final TopicPartition Q = new TopicPartition("orders", 5);
    private static final String[] CLAIM = {"O.init", "O.read0", "O.read1", "O.send", "O.commit", "O.read1"};
    private static final Fencer.Fence TIMED_OUT = new Fencer.Fence.Transient(
            new TimeoutException("fenceProducers timed out"));

    @Test
    void triesAStageFailingForNowAgainAndOwnsThePartitionOnceItSucceeds() {
        Script script = Script.builder().then(CLAIM).instead("O.fence", TIMED_OUT).then("O.fence", "O.read0")
                .then("O.send", "O.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script);
        HarnessTask offsets = offsets(model, script);
        offsets.labels.follow(script);
        AtomicReference<Map<TopicPartition, Long>> claims = new AtomicReference<>();
        AtomicReference<End> change = new AtomicReference<>();

        script.run(Map.of("O", () -> {
            claims.set(offsets.offsets().own(List.of(P)));
            change.set(offsets.setProgress(P, 1));
        }));

        assertThat(claims.get()).as("P OWNED under the API's claim, above task 0's").containsExactly(Map.entry(P, 1L));
        assertThat(offsets.labels.fences()).containsExactly(Set.of(t0.id), Set.of(t0.id));
        assertThat(change.get()).isInstanceOf(End.Done.class);
        assertThat(offsets.next(P)).isEqualTo(1);
    }

    @Test
    void failsTheRequestWhenAStageFailsForNowThreeTimesInARow() {
        Script script = Script.builder().then(CLAIM).instead("O.fence", TIMED_OUT).instead("O.fence", TIMED_OUT)
                .instead("O.fence", TIMED_OUT).build();
        ModelCoordinator model = model(script);
        owner(model, script);
        HarnessTask offsets = offsets(model, script);
        offsets.labels.follow(script);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();

        script.run(Map.of("O", () -> {
            try {
                offsets.offsets().own(List.of(P));
            } catch (RuntimeException e) {
                failure.set(e);
            }
        }));

        assertThat(failure.get()).isInstanceOf(RetriableException.class).hasMessageContaining("[orders-3]")
                .hasMessageContaining("fenceProducers timed out");
        assertThat(offsets.ownership.owned()).as("nothing to write").isEmpty();
    }

    @Test
    void failsTheRequestNamingAPartitionAnotherIdClaimedAfterTheOffsetsApi() {
        Script script = Script.builder().build();
        ModelCoordinator model = model(script);
        owner(model, script);
        HarnessTask offsets = offsets(model, script);
        assertThat(offsets.offsets().own(List.of(P))).containsOnlyKeys(P);
        HarnessTask running = new HarnessTask(model, "T1", 1, script.clock());
        running.own(P); // a task of a connector that is not stopped: claims later, fences offsets#0

        assertThatThrownBy(() -> offsets.offsets().own(List.of(P, Q))).isInstanceOf(ConnectException.class)
                .hasMessageContaining("[orders-3]").hasMessageContaining("stop the connector");
        assertThat(offsets.ownership.owned()).as("Q is owned, P is not").containsExactly(Q);
    }

    /** Task 0 owns {@code P} with two records written, before the script starts. */
    private static HarnessTask owner(ModelCoordinator model, Script script) {
        HarnessTask t0 = new HarnessTask(model, "T0", 0, script.clock());
        t0.own(P);
        assertThat(t0.write(P, 2)).isInstanceOf(End.Done.class);
        return t0;
    }

    /** The offsets API's id, its calls not yet following the script. */
    private static HarnessTask offsets(ModelCoordinator model, Script script) {
        return new HarnessTask(model, "O", OwnershipRecord.offsetsId(HarnessTask.PREFIX), script.clock());
    }

    private static ModelCoordinator model(Script script) {
        return new ModelCoordinator(Version.V2, Short.MAX_VALUE, script.clock(), Duration.ofMinutes(1));
    }
}
