package dev.quarantine.connect.sink.ownership;

import static dev.quarantine.connect.sink.ownership.Script.parties;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.ModelCoordinator.Version;
import dev.quarantine.connect.sink.ownership.PartitionState.Claimed;
import dev.quarantine.connect.sink.ownership.PartitionState.Lost;
import dev.quarantine.connect.sink.ownership.PartitionState.Owned;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.sandbox.MovableClock;
import dev.quarantine.txn.TxnSendOption;

/**
 * Rows of design 5.3: the real {@link Ownership} of each task against the model coordinator, the order of every seam
 * call set by the {@link Script}. Each test ends with the target as a {@code read_committed} reader sees it: every
 * source record once (set equality, in order).
 */
class OwnershipHarnessTest {

    private static final TopicPartition P = new TopicPartition("orders", 3);
    private static final TopicPartition Q = new TopicPartition("orders", 5);
    private static final TopicPartition R = new TopicPartition("orders", 7);
    private static final Duration TIMEOUT = Duration.ofMinutes(1);
    /** What a task does from a fresh start to its own claim read back (2.4 steps 1-3, after the first read of 0). */
    private static final String[] CLAIM = {"init", "read0", "read1", "send", "commit", "read1"};

    @Test
    void aZombieCommitAfterTheClaimIsRefused() {
        // row 1: T0 owns p and has a transaction open when T1 claims p, fences T0 and reads the progress (T1's first
        // read of partition 0, before its claim, comes before T0's transaction: one open there holds a read back)
        Script script = Script.builder()
                .then("T1.init", "T1.read0", "T0.send", "T0.send")
                .then("T1.read1", "T1.send", "T1.commit", "T1.read1", "T1.fence", "T1.read0")
                .then("T0.commit", "T0.init", "T0.read1")
                .then("T1.send", "T1.send", "T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 5);
        HarnessTask t1 = follower(model, script, "T1", 1);
        AtomicReference<End> zombieCommit = new AtomicReference<>();

        script.run(parties(
                "T0", () -> {
                    zombieCommit.set(t0.write(P, 1));
                    t0.putUntil(P, Lost.class::isInstance);
                },
                "T1", () -> {
                    t1.own(P);
                    assertThat(t1.next(P)).isEqualTo(5);
                    t1.write(P, 3);
                }));

        assertThat(zombieCommit.get()).isInstanceOf(End.Fenced.class);
        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id));
        assertThat(t0.ownership.state(P)).contains(new Lost(t1.id, 1));
        assertThat(t0.ownership.lostTotal()).isEqualTo(1);
        assertThat(t0.ownership.owned()).isEmpty();
        assertThat(t1.ownership.state(P)).contains(new Owned(1));
        assertThat(target(model)).containsExactlyElementsOf(values(0, 8));
    }

    @Test
    void aCommitCompletingWhenTheFenceArrivesIsReadByTheClaimant() {
        // row 2: T0's commit is answered, its markers not yet written when T1's fence comes: the fence waits for
        // them (here: answered CONCURRENT_TRANSACTIONS until its bound, then tried again); T1 reads T0's progress
        Script script = Script.builder()
                .then(labels("T1", CLAIM))
                .then("T0.send", "T0.send", "M.hold", "T0.commit", "T1.fence", "M.markers", "T1.fence", "T1.read0")
                .then("T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        AtomicReference<End> holderCommit = new AtomicReference<>();
        AtomicReference<Long> readByClaimant = new AtomicReference<>();

        script.run(parties(
                "T0", () -> holderCommit.set(t0.write(P, 1)),
                "M", () -> {
                    script.call("M.hold", () -> {
                        model.holdMarkers(true);
                        return null;
                    });
                    script.call("M.markers", () -> {
                        model.writeMarkers(t0.id);
                        model.holdMarkers(false);
                        return null;
                    });
                },
                "T1", () -> {
                    t1.own(P);
                    readByClaimant.set(t1.next(P));
                    t1.write(P, 1);
                }));

        assertThat(holderCommit.get()).isInstanceOf(End.Done.class);
        assertThat(readByClaimant.get()).isEqualTo(3);
        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id), Set.of(t0.id));
        assertThat(target(model)).containsExactlyElementsOf(values(0, 4));
    }

    @Test
    void aLateClaimFromAZombieOpenFencesTheEarlierClaimantWhichPausesAndReclaims() {
        // row 3: T2 read partition 1 and stopped inside its opening; T1 claims, fences T0, writes; T2 resumes,
        // claims above T1 and fences T0 and T1; T1's commit is refused, it finds p LOST; p still assigned to T1
        // after the session timeout (T2 was a zombie): T1 claims again and fences T2
        Script script = Script.builder()
                .then("T2.init", "T2.read0", "T2.read1")
                .then(labels("T1", CLAIM)).then("T1.fence", "T1.read0", "T1.send", "T1.send", "T1.commit")
                .then("T1.send", "T1.send")
                .then("T2.send", "T2.commit", "T2.read1", "T2.fence", "T2.read0")
                .then("T1.commit", "T1.init", "T1.read1")
                .then("clock.session")
                .then("T1.send", "T1.commit", "T1.read1", "T1.fence", "T1.read0")
                .then("T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        HarnessTask t2 = follower(model, script, "T2", 2);
        AtomicReference<End> refused = new AtomicReference<>();
        AtomicReference<PartitionState> afterRefusal = new AtomicReference<>();

        script.run(parties(
                "T1", () -> {
                    t1.own(P);
                    t1.write(P, 1);
                    refused.set(t1.write(P, 1));
                    t1.putUntil(P, Lost.class::isInstance);
                    afterRefusal.set(t1.ownership.state(P).orElseThrow());
                    script.advance("clock.session", Duration.ofSeconds(45));
                    t1.putUntil(P, PartitionState::writable);
                    t1.write(P, 1);
                },
                "T2", () -> {
                    t2.ownership.open(List.of(P));
                    t2.putUntil(P, PartitionState::writable);
                }));

        assertThat(refused.get()).isInstanceOf(End.Fenced.class);
        assertThat(afterRefusal.get()).isEqualTo(new Lost(t2.id, 2));
        assertThat(t2.labels.fences()).containsExactly(Set.of(t0.id, t1.id));
        // the reclaim's P is the last progress T1 read (T0's, under c0): a stale P only adds T0 (rule F)
        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id), Set.of(t0.id, t2.id));
        assertThat(t1.ownership.state(P)).contains(new Owned(3));
        assertThat(target(model)).containsExactlyElementsOf(values(0, 4));
    }

    @Test
    void concurrentClaimsFenceInClaimOrder() {
        // row 4: T1 and T2 both read T0's claim; T1 claims, fences T0 and writes, unaware of T2, whose claim lands
        // above; T1 commits before T2's fence: T2's fence set holds T1 (above P) and its read holds T1's commit
        Script script = Script.builder()
                .then("T2.init", "T2.read0")
                .then(labels("T1", CLAIM)).then("T2.read1")
                .then("T1.fence", "T1.read0", "T1.send", "T1.send")
                .then("T2.send", "T2.commit", "T2.read1")
                .then("T1.commit")
                .then("T2.fence", "T2.read0", "T2.send", "T2.send", "T2.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        HarnessTask t2 = follower(model, script, "T2", 2);
        AtomicReference<End> unaware = new AtomicReference<>();
        AtomicReference<Long> readByT2 = new AtomicReference<>();

        script.run(parties(
                "T1", () -> {
                    t1.own(P);
                    unaware.set(t1.write(P, 1));
                },
                "T2", () -> {
                    t2.own(P);
                    readByT2.set(t2.next(P));
                    t2.write(P, 1);
                }));

        assertThat(unaware.get()).isInstanceOf(End.Done.class);
        assertThat(t2.labels.fences()).containsExactly(Set.of(t0.id, t1.id));
        assertThat(readByT2.get()).isEqualTo(3);
        assertThat(target(model)).containsExactlyElementsOf(values(0, 4));
    }

    @Test
    void aFenceMidCommitKeepsTheTasksOtherPartitionsAndLosesNothing() {
        // row 5: T0 owns p and q; T1 claims p while T0's transaction of both is open: the fence aborts it; T0 is
        // refused, initialises again, finds p LOST and q still its own (proof kept), and writes q again
        Script script = Script.builder()
                .then(labels("T1", CLAIM))
                .then("T0.send", "T0.send", "T0.send", "T0.send")
                .then("T1.fence", "T1.read0")
                .then("T0.commit", "T0.init", "T0.read1", "T0.read0")
                .then("T0.send", "T0.send", "T0.commit")
                .then("T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = new HarnessTask(model, "T0", 0, script.clock());
        t0.own(P, Q);
        assertThat(t0.write(2, P, Q)).isInstanceOf(End.Done.class);
        t0.labels.follow(script);
        HarnessTask t1 = follower(model, script, "T1", 1);
        AtomicReference<End> midCommit = new AtomicReference<>();
        AtomicReference<Ownership.Opening> reopened = new AtomicReference<>();

        script.run(parties(
                "T0", () -> {
                    midCommit.set(t0.write(1, P, Q));
                    reopened.set(t0.put());
                    t0.write(Q, 1);
                },
                "T1", () -> {
                    t1.own(P);
                    t1.write(P, 1);
                }));

        assertThat(midCommit.get()).isInstanceOf(End.Fenced.class);
        assertThat(reopened.get()).isEqualTo(new Ownership.Opening.Progressed(Set.of(Q), Set.of(P)));
        assertThat(t0.ownership.owned()).containsExactly(Q);
        assertThat(target(model)).containsExactlyElementsOf(values(0, 3));
        assertThat(model.partition(new TopicPartition(HarnessTask.TARGET, Q.partition())).readCommitted())
                .containsExactly(HarnessTask.value(Q, 0), HarnessTask.value(Q, 1), HarnessTask.value(Q, 2));
    }

    @Test
    void aFenceTimingOutLeavesThePartitionPausedAndUnreadUntilItSucceeds() {
        // row 7: T1's first fence times out without being applied; T0 commits meanwhile; T1 reads only after a Done
        Script script = Script.builder()
                .then(labels("T1", CLAIM))
                .instead("T1.fence", new Fencer.Fence.Transient(new TimeoutException("fenceProducers timed out")))
                .then("T0.send", "T0.send", "T0.send", "T0.commit")
                .then("T1.fence", "T1.read0")
                .then("T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        AtomicReference<PartitionState> betweenFences = new AtomicReference<>();
        AtomicReference<End> holderCommit = new AtomicReference<>();

        script.run(parties(
                "T0", () -> holderCommit.set(t0.write(P, 2)),
                "T1", () -> {
                    t1.ownership.open(List.of(P));
                    t1.put();
                    betweenFences.set(t1.ownership.state(P).orElseThrow());
                    t1.putUntil(P, PartitionState::writable);
                    assertThat(t1.next(P)).isEqualTo(4);
                    t1.write(P, 1);
                }));

        assertThat(betweenFences.get()).isEqualTo(new Claimed(1));
        assertThat(holderCommit.get()).isInstanceOf(End.Done.class);
        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id), Set.of(t0.id));
        assertThat(target(model)).containsExactlyElementsOf(values(0, 5));
    }

    @Test
    void aClaimantThatDiedBeforeFencingIsFencedWithItsFenceSetByTheNext() {
        // row 8: T1 claims and stops before its fence; T2 claims later and fences T0 (P's holder) and T1 (above P)
        Script script = Script.builder()
                .then(labels("T1", CLAIM))
                .then(labels("T2", CLAIM)).then("T2.fence", "T2.read0")
                .then("T0.send", "T0.send", "T0.commit")
                .then("T2.send", "T2.send", "T2.send", "T2.commit")
                .instead("T1.fence", new Fencer.Fence.Transient(new TimeoutException("stopped before it was sent")))
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        HarnessTask t2 = follower(model, script, "T2", 2);
        AtomicReference<End> zombieCommit = new AtomicReference<>();

        script.run(parties(
                "T0", () -> zombieCommit.set(t0.write(P, 1)),
                "T1", () -> {
                    t1.ownership.open(List.of(P));
                    t1.put();
                },
                "T2", () -> {
                    t2.own(P);
                    t2.write(P, 2);
                }));

        assertThat(t2.labels.fences()).containsExactly(Set.of(t0.id, t1.id));
        assertThat(zombieCommit.get()).isInstanceOf(End.Fenced.class);
        assertThat(t1.ownership.state(P)).contains(new Claimed(1));
        assertThat(target(model)).containsExactlyElementsOf(values(0, 4));
    }

    @Test
    void aConcurrentClaimantFoundInStep3IsFencedWhenTheLaterClaimantDiesBeforeItsFence() {
        // row 22 (review finding 1): T1 owns p with a transaction open and stops; T2 claims above it and dies before
        // its fence; T3 derives its fence set from the log alone and fences T0, T1 and T2; T1's commit is refused.
        // T2 and T3 start (their first read of partition 0) before T1's transaction opens there
        Script script = Script.builder()
                .then("T2.init", "T2.read0", "T3.init", "T3.read0")
                .then(labels("T1", CLAIM)).then("T1.fence", "T1.read0", "T1.send", "T1.send")
                .then("T2.read1", "T2.send", "T2.commit", "T2.read1")
                .then("T3.read1", "T3.send", "T3.commit", "T3.read1", "T3.fence", "T3.read0")
                .then("T1.commit")
                .then("T3.send", "T3.send", "T3.send", "T3.commit")
                .instead("T2.fence", new Fencer.Fence.Transient(new TimeoutException("stopped for good")))
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        HarnessTask t2 = follower(model, script, "T2", 2);
        HarnessTask t3 = follower(model, script, "T3", 3);
        AtomicReference<End> resumedCommit = new AtomicReference<>();

        script.run(parties(
                "T1", () -> {
                    t1.own(P);
                    resumedCommit.set(t1.write(P, 1));
                },
                "T2", () -> {
                    t2.ownership.open(List.of(P));
                    t2.put();
                },
                "T3", () -> {
                    t3.own(P);
                    t3.write(P, 2);
                }));

        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id));
        assertThat(t3.labels.fences()).containsExactly(Set.of(t0.id, t1.id, t2.id));
        assertThat(resumedCommit.get()).isInstanceOf(End.Fenced.class);
        assertThat(target(model)).containsExactlyElementsOf(values(0, 4));
    }

    @Test
    void aFenceTimeoutThenAReinitKeepsThePartitionClaimed() {
        // row 19 (review 2(a)): T1's fence times out unapplied; its slot is fenced for another reason and initialised
        // again; p's latest claim is T1's without proof: CLAIMED, fenced again before any read of partition 0
        Script script = Script.builder()
                .then(labels("T1", CLAIM))
                .instead("T1.fence", new Fencer.Fence.Transient(new TimeoutException("fenceProducers timed out")))
                .then("T0.send", "T0.send", "T0.commit")
                .then("T1.init", "T1.read1", "T1.fence", "T1.read0")
                .then("T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        AtomicReference<Long> read = new AtomicReference<>();

        script.run(parties(
                "T0", () -> t0.write(P, 1),
                "T1", () -> {
                    t1.ownership.open(List.of(P));
                    t1.put();
                    t1.ownership.fenced(false);
                    t1.putUntil(P, PartitionState::writable);
                    read.set(t1.next(P));
                    t1.write(P, 1);
                }));

        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id), Set.of(t0.id));
        assertThat(read.get()).isEqualTo(3);
        assertThat(target(model)).containsExactlyElementsOf(values(0, 4));
    }

    @Test
    void anEagerCloseOfAClaimedPartitionFencesAgainOnReopen() {
        // row 20 (review 2(b)): a pending fence is not remembered across close: the reopen finds the own claim
        // without proof and fences it again, with no second claim; a partition whose fence returned before the
        // close is OWNED again without a fence
        Script script = Script.builder()
                .then(labels("T1", CLAIM))
                .instead("T1.fence", new Fencer.Fence.Transient(new TimeoutException("fenceProducers timed out")))
                .then("T1.read1", "T1.fence", "T1.read0")
                .then("T1.read1", "T1.read0")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);

        script.run(Map.of("T1", () -> {
            t1.ownership.open(List.of(P));
            t1.put();
            t1.ownership.close(List.of(P));
            t1.own(P);
            t1.ownership.close(List.of(P));
            t1.own(P);
        }));

        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id), Set.of(t0.id));
        assertThat(t1.ownership.state(P)).contains(new Owned(1));
        assertThat(model.partition(new TopicPartition(HarnessTask.PROGRESS, 1)).readCommitted()).hasSize(2);
    }

    @Test
    void aClaimCommitReportedFailedButCommittedStillFences() {
        // row 21 (review 2(c)): the claim committed but its answer was lost; the next read of partition 1 finds it as
        // the own id's latest without proof: CLAIMED, fenced, then read; no second claim
        Script script = Script.builder()
                .then("T1.init", "T1.read0", "T1.read1", "T1.send")
                .applied("T1.commit", new End.MaybeDone(new TimeoutException("the answer was lost")))
                .then("T1.read1", "T1.fence", "T1.read0")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        AtomicReference<PartitionState> afterLostAnswer = new AtomicReference<>();

        script.run(Map.of("T1", () -> {
            t1.ownership.open(List.of(P));
            t1.put();
            afterLostAnswer.set(t1.ownership.state(P).orElseThrow());
            t1.putUntil(P, PartitionState::writable);
        }));

        assertThat(afterLostAnswer.get()).isEqualTo(new PartitionState.New());
        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id));
        assertThat(t1.ownership.state(P)).contains(new Owned(1));
    }

    @Test
    void unexplainedFencesFailTheTaskOnlyAfterTheTransientTimeout() {
        // row 27 (review finding 5): W1's resumed instance of task 0 re-initialises task#0.0 while W2's instance runs;
        // no claim explains the fences: W2 goes on until W1 stops, then commits; every record once
        Script script = Script.builder()
                .then("W1.init", "W2.send", "W2.send", "W2.commit", "W2.init", "W2.read1", "W2.read0")
                .then("W1.init", "W2.send", "W2.send", "W2.commit")
                .then("clock.wait")
                .then("W2.init", "W2.read1", "W2.read0", "W2.send", "W2.send", "W2.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask w2 = holder(model, script, "W2", 0, 2);
        Labelled w1 = new Labelled("W1");
        w1.follow(script);
        SlotProducer zombie = w1.producer(new ModelProducer(model, w2.id));
        List<Object> answers = new CopyOnWriteArrayList<>();

        script.run(parties(
                "W1", () -> {
                    zombie.init();
                    zombie.init();
                },
                "W2", () -> {
                    answers.add(w2.write(P, 1));
                    answers.add(w2.put());
                    answers.add(w2.write(P, 1));
                    script.advance("clock.wait", Duration.ofMinutes(4));
                    answers.add(w2.put());
                    answers.add(w2.write(P, 1));
                }));

        assertThat(answers).hasSize(5);
        assertThat(answers.get(0)).isInstanceOf(End.Fenced.class);
        assertThat(answers.get(1)).isEqualTo(new Ownership.Opening.Progressed(Set.of(P), Set.of()));
        assertThat(answers.get(2)).isInstanceOf(End.Fenced.class);
        assertThat(answers.get(3)).isInstanceOf(Ownership.Opening.Progressed.class);
        assertThat(answers.get(4)).isInstanceOf(End.Done.class);
        assertThat(target(model)).containsExactlyElementsOf(values(0, 3));
    }

    @Test
    void unexplainedFencesPastTheTransientTimeoutFailTheTaskNamingThePrefix() {
        // row 27's variant: the other instance never stops (another connector with the same prefix)
        Script script = Script.builder()
                .then("W1.init", "W2.send", "W2.send", "W2.commit", "W2.init", "W2.read1", "W2.read0")
                .then("W1.init", "W2.send", "W2.send", "W2.commit")
                .then("clock.wait")
                .then("W2.init", "W2.read1", "W2.read0")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask w2 = new HarnessTask(model, "W2", 0, script.clock());
        w2.own(P);
        w2.labels.follow(script);
        Labelled w1 = new Labelled("W1");
        w1.follow(script);
        SlotProducer other = w1.producer(new ModelProducer(model, w2.id));
        AtomicReference<Ownership.Opening> last = new AtomicReference<>();

        script.run(parties(
                "W1", () -> {
                    other.init();
                    other.init();
                },
                "W2", () -> {
                    w2.write(P, 1);
                    w2.put();
                    w2.write(P, 1);
                    script.advance("clock.wait", Duration.ofMinutes(6));
                    last.set(w2.put());
                }));

        assertThat(last.get()).isInstanceOf(Ownership.Opening.Failed.class);
        assertThat(((Ownership.Opening.Failed) last.get()).cause())
                .hasMessageContaining(w2.id).hasMessageContaining("transactional.id.prefix")
                .hasMessageContaining("transient.errors.timeout.ms");
        assertThat(target(model)).isEmpty();
    }

    @Test
    void aHolderReinitialisedBetweenClaimAndFenceIsFencedAgain() {
        // row 9: T0, fenced from outside, initialises again and reads p as its own before T1's claim exists; T1
        // claims and fences T0's new epoch: T0's transaction is refused, and its next init finds p LOST. T0 learns
        // of the outside fence from a write: a transaction without a send ends in the client, never refused
        Script script = Script.builder()
                .then("X.fence", "T0.send", "T0.send", "T0.commit", "T1.init", "T1.read0")
                .then("T0.init", "T0.read1", "T0.read0", "T0.send", "T0.send")
                .then("T1.read1", "T1.send", "T1.commit", "T1.read1", "T1.fence", "T1.read0")
                .then("T0.commit", "T0.init", "T0.read1")
                .then("T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = holder(model, script, "T0", 0, 2);
        HarnessTask t1 = follower(model, script, "T1", 1);
        Labelled outside = new Labelled("X");
        outside.follow(script);
        List<End> t0Ends = new CopyOnWriteArrayList<>();

        script.run(parties(
                "X", () -> outside.fencer(new ModelFencer(model)).fence(Set.of(t0.id), TIMEOUT),
                "T0", () -> {
                    t0Ends.add(t0.write(P, 1));
                    t0.putUntil(P, PartitionState::writable);
                    t0Ends.add(t0.write(P, 1));
                    t0.putUntil(P, Lost.class::isInstance);
                },
                "T1", () -> {
                    t1.own(P);
                    t1.write(P, 1);
                }));

        assertThat(t0Ends).hasSize(2).allMatch(End.Fenced.class::isInstance);
        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id));
        assertThat(t0.ownership.state(P)).contains(new Lost(t1.id, 1));
        assertThat(target(model)).containsExactlyElementsOf(values(0, 3));
    }

    @Test
    void anOffsetsChangeClaimsAndFencesARunningZombie() {
        // row 16: Connect's offsets API, as offsets#0, claims p, fences T0 (a zombie of the stopped connector) and
        // reads the progress; T0's next transaction is refused and it initialises again before the API's commit (the
        // window the per-partition producers left open): it reads the API's claim and pauses p. The next owner T1
        // fences offsets#0, the holder of the changed progress, and resumes from the change
        Script script = Script.builder()
                .then(labels("O", CLAIM)).then("O.fence", "O.read0")
                .then("T0.send", "T0.send", "T0.commit", "T0.init", "T0.read1")
                .then("O.send", "O.commit")
                .then("clock.session")
                .then(labels("T1", CLAIM)).then("T1.fence", "T1.read0")
                .then("T1.send", "T1.send", "T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = owner(model, script, 5);
        HarnessTask offsets = new HarnessTask(model, "O", OwnershipRecord.offsetsId(HarnessTask.PREFIX),
                script.clock());
        offsets.labels.follow(script);
        HarnessTask t1 = follower(model, script, "T1", 1);
        AtomicReference<End> zombieCommit = new AtomicReference<>();
        AtomicReference<End> change = new AtomicReference<>();
        AtomicReference<PartitionState> afterTheDelay = new AtomicReference<>();

        script.run(parties(
                "O", () -> {
                    assertThat(offsets.offsets().own(List.of(P))).containsOnlyKeys(P);
                    change.set(offsets.setProgress(P, 2));
                },
                "T0", () -> {
                    zombieCommit.set(t0.write(P, 1));
                    t0.putUntil(P, Lost.class::isInstance);
                    // a review finding: a partition lost to the offsets API is never claimed back after the session
                    // timeout, as one lost to a task is (the zombie would undo a reset, or write while STOPPED)
                    script.advance("clock.session", Duration.ofSeconds(46));
                    t0.put();
                    afterTheDelay.set(t0.ownership.state(P).orElseThrow());
                },
                "T1", () -> {
                    t1.own(P);
                    assertThat(t1.next(P)).isEqualTo(2);
                    t1.write(P, 3);
                }));

        assertThat(zombieCommit.get()).isInstanceOf(End.Fenced.class);
        assertThat(change.get()).isInstanceOf(End.Done.class);
        assertThat(offsets.labels.fences()).containsExactly(Set.of(t0.id));
        assertThat(t0.ownership.state(P)).contains(new Lost(offsets.id, 1));
        assertThat(afterTheDelay.get()).isEqualTo(new Lost(offsets.id, 1));
        assertThat(t1.labels.fences()).as("the holder of the changed progress").containsExactly(Set.of(offsets.id));
        List<String> expected = new ArrayList<>(values(0, 5));
        expected.addAll(values(2, 5));
        assertThat(target(model)).containsExactlyElementsOf(expected);
    }

    @Test
    void anEagerRebalanceFencesOnlyTheIdsOfMovedPartitions() {
        // row 11: close(all) and open(all) on both tasks; T0 keeps p, T1 keeps r and gets q from T0: kept partitions
        // are OWNED again with no claim and no fence (their proof outlives close), q costs one claim and one fence.
        // Row 12's cost too: T1's fence of T0 (for q) refuses T0's next commit once; T0 initialises again, keeps p
        // (its proof) and writes it again; that fence is explained by q's claim, so no wait without a commit fails T0
        Script script = Script.builder()
                .then("T0.read1", "T0.read0")
                .then("T1.read1", "T1.send", "T1.commit", "T1.read1", "T1.fence", "T1.read0")
                .then("T0.send", "T0.send", "T0.commit")
                .then("T0.init", "T0.read1", "T0.read0", "clock.wait", "T0.send", "T0.send", "T0.commit")
                .then("T1.send", "T1.send", "T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t0 = new HarnessTask(model, "T0", 0, script.clock());
        HarnessTask t1 = new HarnessTask(model, "T1", 1, script.clock());
        t0.own(P, Q);
        t1.own(R);
        assertThat(t0.write(1, P, Q)).isInstanceOf(End.Done.class);
        assertThat(t1.write(R, 1)).isInstanceOf(End.Done.class);
        t0.labels.follow(script);
        t1.labels.follow(script);
        AtomicReference<End> loserCommit = new AtomicReference<>();
        AtomicReference<Ownership.Opening> afterTheWait = new AtomicReference<>();

        script.run(parties(
                "T0", () -> {
                    t0.ownership.close(List.of(P, Q));
                    t0.own(P);
                    loserCommit.set(t0.write(P, 1));
                    t0.putUntil(P, PartitionState::writable);
                    script.advance("clock.wait", Duration.ofMinutes(6));
                    afterTheWait.set(t0.put());
                    t0.write(P, 1);
                },
                "T1", () -> {
                    t1.ownership.close(List.of(R));
                    t1.own(Q, R);
                    t1.write(1, Q, R);
                }));

        assertThat(t0.labels.fences()).isEmpty();
        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id));
        assertThat(loserCommit.get()).isInstanceOf(End.Fenced.class);
        // the fence is explained by q's move (a later claim of another id), though q was closed: it never fails T0
        assertThat(afterTheWait.get()).isEqualTo(new Ownership.Opening.Progressed(Set.of(), Set.of()));
        for (TopicPartition partition : List.of(P, Q, R)) {
            assertThat(model.partition(new TopicPartition(HarnessTask.TARGET, partition.partition())).readCommitted())
                    .containsExactly(HarnessTask.value(partition, 0), HarnessTask.value(partition, 1));
        }
    }

    @Test
    void claimsNamingARetiredTaskIdFenceIt() {
        // row 13: tasks.max 4 -> 2; task 2's partition goes to task 0, which fences task#2.0 though no task uses it
        Script script = Script.builder()
                .then("T0.init", "T0.read0", "T2.send", "T2.send")
                .then("T0.read1", "T0.send", "T0.commit", "T0.read1", "T0.fence", "T0.read0")
                .then("T2.commit")
                .then("T0.send", "T0.send", "T0.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask t2 = holder(model, script, "T2", 2, 2);
        HarnessTask t0 = follower(model, script, "T0", 0);
        AtomicReference<End> retired = new AtomicReference<>();

        script.run(parties(
                "T2", () -> retired.set(t2.write(P, 1)),
                "T0", () -> {
                    t0.own(P);
                    t0.write(P, 1);
                }));

        assertThat(t0.labels.fences()).containsExactly(Set.of(t2.id));
        assertThat(retired.get()).isInstanceOf(End.Fenced.class);
        assertThat(target(model)).containsExactlyElementsOf(values(0, 3));
    }

    @Test
    void twoInstancesOfOneTaskIdReadProgressAfterEachInit() {
        // row 14: task 0 starts on W2 while W1's task 0 lives with a transaction open; each init fences the other
        // instance; W2 takes the claim W1 made as its own with its proof (W1's progress under it): no claim, no fence
        Script script = Script.builder()
                .then("W1.send", "W1.send")
                .then("W2.init", "W2.read0", "W2.read1", "W2.read0")
                .then("W1.commit")
                .then("W2.send", "W2.send", "W2.commit")
                .then("W1.init", "W1.read1", "W1.read0", "W1.send", "W1.send", "W1.commit")
                .build();
        ModelCoordinator model = model(script);
        HarnessTask w1 = holder(model, script, "W1", 0, 2);
        HarnessTask w2 = follower(model, script, "W2", 0);
        // each instance's own answers: W1's fenced commit and W2's commit return on two threads in either order
        List<End> w1Ends = new CopyOnWriteArrayList<>();
        List<End> w2Ends = new CopyOnWriteArrayList<>();

        script.run(parties(
                "W1", () -> {
                    w1Ends.add(w1.write(P, 1));
                    w1.putUntil(P, PartitionState::writable);
                    w1Ends.add(w1.write(P, 1));
                },
                "W2", () -> {
                    w2.own(P);
                    w2Ends.add(w2.write(P, 1));
                }));

        assertThat(w1Ends).hasSize(2);
        assertThat(w1Ends.get(0)).isInstanceOf(End.Fenced.class);
        assertThat(w1Ends.get(1)).isInstanceOf(End.Done.class);
        assertThat(w2Ends).singleElement().isInstanceOf(End.Done.class);
        assertThat(w2.labels.fences()).isEmpty();
        assertThat(w2.ownership.state(P)).contains(new Owned(0));
        assertThat(target(model)).containsExactlyElementsOf(values(0, 4));
    }

    @Test
    void aTransactionTimeoutIsHandledAsAFence() {
        // row 15 (version 1): T0's transaction outlives transaction.timeout.ms; its coordinator aborts it and bumps the
        // epoch; T0's commit is refused, T0 initialises again, reads again, keeps p and writes the records again
        Script script = Script.builder()
                .then("T0.send", "T0.send", "clock.timeout", "T0.commit")
                .then("T0.init", "T0.read1", "T0.read0", "T0.send", "T0.send", "T0.commit")
                .build();
        ModelCoordinator model = new ModelCoordinator(Version.V1, Short.MAX_VALUE, script.clock(), TIMEOUT);
        HarnessTask t0 = owner(model, script, 2);
        List<Object> answers = new CopyOnWriteArrayList<>();

        script.run(parties(
                "T0", () -> {
                    answers.add(t0.write(P, 1));
                    answers.add(t0.put());
                    answers.add(t0.write(P, 1));
                },
                "clock", () -> script.call("clock.timeout", () -> {
                    script.clock().advance(TIMEOUT);
                    model.abortTimedOut();
                    return null;
                })));

        assertThat(answers.get(0)).isInstanceOf(End.Fenced.class);
        assertThat(answers.get(1)).isEqualTo(new Ownership.Opening.Progressed(Set.of(P), Set.of()));
        assertThat(answers.get(2)).isInstanceOf(End.Done.class);
        assertThat(t0.ownership.lostTotal()).as("a fence of its own producer loses no partition").isZero();
        assertThat(target(model)).containsExactlyElementsOf(values(0, 3));
    }

    @Test
    void aProducerIdRotatedAtEpochExhaustionKeepsOwnership() {
        // row 17 (version 2, the model's epoch limit at 5): T0's commits rotate its producer id; it keeps p, and T1's
        // fence, by transactional id, still refuses T0's next commit
        Script script = Script.builder()
                .then("T1.init", "T1.read0", "T0.send", "T0.send")
                .then("T1.read1", "T1.send", "T1.commit", "T1.read1", "T1.fence", "T1.read0")
                .then("T0.commit")
                .then("T1.send", "T1.send", "T1.commit")
                .build();
        ModelCoordinator model = new ModelCoordinator(Version.V2, 5, script.clock(), TIMEOUT);
        HarnessTask t0 = new HarnessTask(model, "T0", 0, script.clock());
        t0.own(P);
        long firstProducerId = model.producer(t0.id).producerId();
        for (int i = 0; i < 6; i++) {
            assertThat(t0.write(P, 1)).isInstanceOf(End.Done.class);
        }
        assertThat(model.producer(t0.id).producerId()).isNotEqualTo(firstProducerId);
        t0.labels.follow(script);
        HarnessTask t1 = follower(model, script, "T1", 1);
        AtomicReference<End> zombieCommit = new AtomicReference<>();

        script.run(parties(
                "T0", () -> zombieCommit.set(t0.write(P, 1)),
                "T1", () -> {
                    t1.own(P);
                    t1.write(P, 1);
                }));

        assertThat(t0.ownership.state(P)).contains(new Owned(0));
        assertThat(zombieCommit.get()).isInstanceOf(End.Fenced.class);
        assertThat(t1.labels.fences()).containsExactly(Set.of(t0.id));
        assertThat(target(model)).containsExactlyElementsOf(values(0, 7));
    }

    @Test
    void openMakesNoRoundTripAndStagesFitThePollBudget() {
        // row 29 (review finding 10): 1,000 partitions opened; every seam call takes its whole bound on the clock
        MovableClock clock = new MovableClock();
        ModelCoordinator model = new ModelCoordinator(Version.V2, Short.MAX_VALUE, clock, TIMEOUT);
        Duration maxBlock = Duration.ofSeconds(20);
        StageBudget budget = new StageBudget(Duration.ofSeconds(100), maxBlock, Duration.ofSeconds(30),
                Duration.ofSeconds(30), clock);
        List<Instant> callEnds = new ArrayList<>();
        Slow slow = new Slow(clock, callEnds, maxBlock);
        String id = OwnershipRecord.taskId(HarnessTask.PREFIX, 1, 0);
        Ownership ownership = new Ownership(HarnessTask.PREFIX, HarnessTask.PROGRESS, id, new Ownership.Seams(
                slow.producer(new ModelProducer(model, id)), slow.fencer(new ModelFencer(model)),
                slow.log(new ModelLog(model, HarnessTask.PROGRESS, HarnessTask.PREFIX))), budget,
                new Ownership.Limits(Duration.ofMinutes(5), Duration.ofSeconds(45)), clock);
        List<TopicPartition> partitions = IntStream.range(0, 1000)
                .mapToObj(n -> new TopicPartition("orders", n)).toList();

        ownership.open(partitions);

        assertThat(callEnds).isEmpty();
        int puts = 0;
        while (ownership.owned().size() < partitions.size()) {
            assertThat(puts++).as("puts").isLessThan(10);
            Instant putEnds = clock.instant().plus(Duration.ofSeconds(80));
            int before = callEnds.size();
            assertThat(ownership.advance(budget.startPut())).isInstanceOf(Ownership.Opening.Progressed.class);
            assertThat(callEnds.subList(before, callEnds.size())).allMatch(end -> !end.isAfter(putEnds));
        }
        assertThat(puts).isGreaterThan(1);
        assertThat(model.partition(new TopicPartition(HarnessTask.PROGRESS, 1)).readCommitted()).hasSize(1000);
    }

    /** Seams that take their whole bound: each call moves the clock by it (init and commit: max.block.ms). */
    private record Slow(MovableClock clock, List<Instant> ends, Duration maxBlock) {

        private <T> T took(Duration bound, Supplier<T> call) {
            clock.advance(bound);
            ends.add(clock.instant());
            return call.get();
        }

        SlotProducer producer(SlotProducer model) {
            return new SlotProducer() {
                @Override
                public Init init() {
                    return took(maxBlock, model::init);
                }

                @Override
                public void begin() {
                    model.begin();
                }

                @Override
                public Sent send(ProducerRecord<byte[], byte[]> record,
                                 TxnSendOption option) {
                    return model.send(record, option);
                }

                @Override
                public End commit() {
                    return took(maxBlock, model::commit);
                }

                @Override
                public End abort() {
                    return took(maxBlock, model::abort);
                }

                @Override
                public void close(Duration timeout) {
                    model.close(timeout);
                }
            };
        }

        Fencer fencer(Fencer model) {
            return (ids, bound) -> took(bound, () -> model.fence(ids, bound));
        }

        OwnershipLog log(OwnershipLog model) {
            return new OwnershipLog() {
                @Override
                public LogRead<OwnershipRecord> claims(Duration bound) {
                    return took(bound, () -> model.claims(bound));
                }

                @Override
                public LogRead<ProgressMark> progress(Duration bound) {
                    return took(bound, () -> model.progress(bound));
                }
            };
        }
    }

    /** T0, task 0, owns {@code P} and has written its first {@code records} records, before the script starts. */
    private static HarnessTask owner(ModelCoordinator model, Script script, int records) {
        HarnessTask t0 = new HarnessTask(model, "T0", 0, script.clock());
        t0.own(P);
        assertThat(t0.write(P, records)).isInstanceOf(End.Done.class);
        t0.labels.follow(script);
        return t0;
    }

    /** {@code party}, task {@code task}, owns {@code P} and has written its first {@code records} records. */
    private static HarnessTask holder(ModelCoordinator model, Script script, String party, int task, int records) {
        HarnessTask holder = new HarnessTask(model, party, task, script.clock());
        holder.own(P);
        holder.write(P, records);
        holder.labels.follow(script);
        return holder;
    }

    /** Task {@code task} as {@code party}, which owns nothing yet, its seam calls in the script's order. */
    private static HarnessTask follower(ModelCoordinator model, Script script, String party, int task) {
        HarnessTask follower = new HarnessTask(model, party, task, script.clock());
        follower.labels.follow(script);
        return follower;
    }

    private static ModelCoordinator model(Script script) {
        return new ModelCoordinator(Version.V2, Short.MAX_VALUE, script.clock(), TIMEOUT);
    }

    private static List<String> target(ModelCoordinator model) {
        return model.partition(new TopicPartition(HarnessTask.TARGET, P.partition())).readCommitted();
    }

    private static List<String> values(long from, long to) {
        return LongStream.range(from, to).mapToObj(offset -> HarnessTask.value(P, offset)).toList();
    }

    private static String[] labels(String party, String... steps) {
        return Arrays.stream(steps).map(step -> party + "." + step).toArray(String[]::new);
    }
}
