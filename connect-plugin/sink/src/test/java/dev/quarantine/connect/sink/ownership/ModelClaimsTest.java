package dev.quarantine.connect.sink.ownership;

import static dev.quarantine.connect.sink.ownership.Script.parties;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.ModelCoordinator.State;
import dev.quarantine.connect.sink.ownership.ModelCoordinator.Version;
import dev.quarantine.connect.sink.ownership.OwnershipLog.LogRead;
import dev.quarantine.connect.sink.ownership.PartitionState.Claimed;
import dev.quarantine.connect.sink.ownership.PartitionState.Fenced;
import dev.quarantine.connect.sink.ownership.PartitionState.Lost;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.sandbox.MovableClock;
import dev.quarantine.txn.TxnSendOption;

/**
 * Steps 2-5 of design 2.4 for one partition, with real claim records in the model's partition 1, the decision classes
 * and the script: the parts of harness rows 3, 4, 24 and 25 that step 3's classes already decide (the task's own
 * sequencing is step 4a's {@code OwnershipHarnessTest}).
 */
class ModelClaimsTest {

    private static final String PREFIX = "copy";
    private static final String TOPIC = "copy-progress";
    private static final TopicPartition P = new TopicPartition("orders", 3);
    private static final String T0 = OwnershipRecord.taskId(PREFIX, 0, 0);
    private static final String T1 = OwnershipRecord.taskId(PREFIX, 1, 0);
    private static final String T2 = OwnershipRecord.taskId(PREFIX, 2, 0);
    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    @Test
    void aStoppedClaimantsOpenClaimHoldsTheReadBackUntilItsCoordinatorAbortsIt() {
        // row 3's variant and row 25: T2 appends a claim and stops; T1's read after its own claim waits for it
        Script script = Script.builder()
                .then("T2.claim.send", "T1.claim.commit", "T1.read1", "clock.timeout", "T1.read1", "T1.fence")
                .build();
        ModelCoordinator model = new ModelCoordinator(Version.V2, Short.MAX_VALUE, script.clock(), TIMEOUT);
        claimAndCommit(model, T0);
        ModelClaims claims = new ModelClaims(model, TOPIC, PREFIX);
        AtomicReference<LogRead<OwnershipRecord>> heldBack = new AtomicReference<>();
        AtomicReference<PartitionState> state = new AtomicReference<>();
        AtomicReference<Set<String>> fenceSet = new AtomicReference<>();

        script.run(parties(
                "T2", () -> script.call("T2.claim.send", () -> claimWithoutCommit(model, T2)),
                "T1", () -> {
                    long own = script.call("T1.claim.commit", () -> claimAndCommit(model, T1));
                    heldBack.set(script.call("T1.read1", claims::read));
                    script.call("T1.read1", claims::read);
                    state.set(PartitionState.afterOwnClaim(own, T1, claims.latest(P)));
                    fenceSet.set(FenceSet.of(P, T1, own, claims.seen(), Optional.empty()));
                    state.set(state.get().afterFence(own,
                            script.call("T1.fence", () -> new ModelFencer(model).fence(fenceSet.get(), TIMEOUT))));
                },
                "clock", () -> script.call("clock.timeout", () -> {
                    script.clock().advance(TIMEOUT);
                    model.abortTimedOut();
                    return null;
                })));

        assertThat(heldBack.get()).isEqualTo(new LogRead.HeldBack<OwnershipRecord>(1));
        assertThat(claims.seen()).extracting(at -> at.record().holder()).containsExactly(T0, T1);
        assertThat(fenceSet.get()).containsExactly(T0);
        assertThat(state.get()).isEqualTo(new Fenced(2));
    }

    @Test
    void aClaimCommittingBelowTheOwnIsSeenFencedAndItsClaimantLoses() {
        // rows 3 and 4: T2's claim lands below T1's and commits while T1's read waits; each decides from the log
        Script script = Script.builder()
                .then("T2.claim.send", "T1.claim.commit", "T1.read1", "T2.claim.commit", "T1.read1", "T2.read1")
                .build();
        ModelCoordinator model = new ModelCoordinator(Version.V1, Short.MAX_VALUE, script.clock(), TIMEOUT);
        claimAndCommit(model, T0);
        ModelClaims t1Claims = new ModelClaims(model, TOPIC, PREFIX);
        ModelClaims t2Claims = new ModelClaims(model, TOPIC, PREFIX);
        Map<String, PartitionState> states = new ConcurrentHashMap<>();
        AtomicReference<Set<String>> fenceSet = new AtomicReference<>();

        script.run(parties(
                "T2", () -> {
                    SlotProducer producer = script.call("T2.claim.send", () -> claimWithoutCommit(model, T2));
                    script.call("T2.claim.commit", producer::commit);
                    script.call("T2.read1", t2Claims::read);
                    states.put(T2, PartitionState.afterOwnClaim(1, T2, t2Claims.latest(P)));
                },
                "T1", () -> {
                    long own = script.call("T1.claim.commit", () -> claimAndCommit(model, T1));
                    script.call("T1.read1", t1Claims::read);
                    script.call("T1.read1", t1Claims::read);
                    states.put(T1, PartitionState.afterOwnClaim(own, T1, t1Claims.latest(P)));
                    fenceSet.set(FenceSet.of(P, T1, own, t1Claims.seen(), Optional.empty()));
                }));

        assertThat(states).containsEntry(T1, new Claimed(2)).containsEntry(T2, new Lost(T1, 2));
        assertThat(fenceSet.get()).containsExactly(T0, T2);
    }

    @Test
    void aClaimLeftOpenOnPartitionOneBySkippedMarkersHoldsEveryReadBackThoughItsCoordinatorCompletedIt() {
        // row 24's premise: the coordinator has the claim complete, the partition still has it open
        ModelCoordinator model = new ModelCoordinator(Version.V2, Short.MAX_VALUE, new MovableClock(), TIMEOUT);
        ModelProducer claimant = new ModelProducer(model, T1);
        claimant.init();
        claimant.begin();
        claimant.send(new OwnershipRecord(P, T1).toRecord(TOPIC, PREFIX), TxnSendOption.NONE);
        model.skipMarkers(new TopicPartition(TOPIC, OwnershipRecord.PARTITION), claimant.current().producerId());

        assertThat(claimant.commit()).isInstanceOf(End.Done.class);

        assertThat(model.state(T1)).isEqualTo(State.COMPLETE_COMMIT);
        assertThat(new ModelClaims(model, TOPIC, PREFIX).read()).isEqualTo(new LogRead.HeldBack<OwnershipRecord>(0));
    }

    private static long claimAndCommit(ModelCoordinator model, String id) {
        ModelProducer producer = claimWithoutCommit(model, id);
        long offset = model.partition(new TopicPartition(TOPIC, OwnershipRecord.PARTITION)).highWatermark() - 1;
        assertThat(producer.commit()).isInstanceOf(End.Done.class);
        return offset;
    }

    private static ModelProducer claimWithoutCommit(ModelCoordinator model, String id) {
        ModelProducer producer = new ModelProducer(model, id);
        producer.init();
        producer.begin();
        producer.send(new OwnershipRecord(P, id).toRecord(TOPIC, PREFIX), TxnSendOption.NONE);
        return producer;
    }
}
