package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.Fencer.Fence;
import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.Holder;
import dev.quarantine.connect.sink.ownership.PartitionState.Claimed;
import dev.quarantine.connect.sink.ownership.PartitionState.Fenced;
import dev.quarantine.connect.sink.ownership.PartitionState.Lost;
import dev.quarantine.connect.sink.ownership.PartitionState.New;
import dev.quarantine.connect.sink.ownership.PartitionState.Owned;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/** The states of design 2.3 and rule O, every transition, with the section 4 rows they decide. */
class PartitionStateTest {

    private static final TopicPartition P = new TopicPartition("orders", 3);
    private static final String OWN = "copy:task#1.0";
    private static final String OTHER = "copy:task#2.0";
    private static final Fence DONE = new Fence.Done(Map.of());
    private static final Fence TIMED_OUT = new Fence.Transient(new TimeoutException("fence timed out"));

    @Test
    void anOpenedPartitionIsNewAndPaused() {
        assertThat(PartitionState.opened()).isEqualTo(new New()).matches(state -> !state.writable());
    }

    @Test
    void aNewPartitionWhoseLatestClaimIsAnotherIdsOrNoneIsClaimedNext() {
        assertThat(read(new New(), claim(4, OTHER), none(), noProgress())).isEqualTo(new New());
        assertThat(new New().afterClaimsRead(Optional.empty(), OWN, none(), noProgress())).isEqualTo(new New());
    }

    @Test
    void theOwnLatestClaimWithoutProofIsOnlyClaimed() {
        // rule O, review finding 2: "the latest claim is mine" is not "my fence completed"
        assertThat(read(new New(), claim(9, OWN), none(), noProgress())).isEqualTo(new Claimed(9));
    }

    @Test
    void theOwnLatestClaimWithTheFenceRememberedIsFencedWithoutAnotherFence() {
        // step 1: an eager rebalance giving the task back what it held
        assertThat(read(new New(), claim(9, OWN), OptionalLong.of(9), noProgress())).isEqualTo(new Fenced(9));
    }

    @Test
    void aCommittedProgressRecordUnderTheOwnClaimIsItsProof() {
        // 2.2: a progress record with claim=o is written only past the fence of o (row 14: another instance's proof)
        assertThat(read(new New(), claim(9, OWN), none(), progress(OWN, 9))).isEqualTo(new Fenced(9));
    }

    @Test
    void progressUnderAnOlderClaimIsNoProofOfTheLatestOne() {
        // row 14: the other instance's claim without a progress record under it is fenced again
        assertThat(read(new New(), claim(9, OWN), none(), progress(OWN, 4))).isEqualTo(new Claimed(9));
    }

    @Test
    void aFenceRememberedForAnOlderClaimIsNoProofOfAReclaim() {
        assertThat(read(new Lost(OTHER, 6), claim(9, OWN), OptionalLong.of(4), noProgress())).isEqualTo(new Claimed(9));
    }

    @Test
    void afterTheOwnClaimALaterClaimOfAnotherIdLosesItAndAnEarlierOneLeavesItClaimed() {
        // step 3, rows 3 and 4: the read after the own claim sees every claim below it
        assertThat(PartitionState.afterOwnClaim(9, OWN, Optional.of(claim(12, OTHER)))).isEqualTo(new Lost(OTHER, 12));
        assertThat(PartitionState.afterOwnClaim(9, OWN, Optional.of(claim(9, OWN)))).isEqualTo(new Claimed(9));
    }

    @Test
    void afterTheOwnClaimAnotherInstancesLaterClaimOfTheOwnIdCountsAsOwn() {
        // row 14: another instance of the own id is the own id; its later claim is the own claim, still to be fenced
        assertThat(PartitionState.afterOwnClaim(9, OWN, Optional.of(claim(12, OWN)))).isEqualTo(new Claimed(12));
    }

    @Test
    void aClaimedPartitionIsFencedOnlyWhenItsFenceReturned() {
        assertThat(new Claimed(9).afterFence(9, DONE)).isEqualTo(new Fenced(9));
        // row 7: a fence that timed out (maybe applied) leaves it claimed and paused
        assertThat(new Claimed(9).afterFence(9, TIMED_OUT)).isEqualTo(new Claimed(9));
        assertThat(new Claimed(9).afterFence(9, new Fence.Refused(new IllegalStateException("acl"))))
                .isEqualTo(new Claimed(9));
        // a fence run for another claim proves nothing about this one
        assertThat(new Claimed(9).afterFence(4, DONE)).isEqualTo(new Claimed(9));
    }

    @Test
    void readingProgressNeverMakesAClaimedPartitionOwned() {
        // rule O, row 7: no read of partition 0 counts before the fence returned
        assertThat(new Claimed(9).afterProgressRead(progress(OTHER, 4))).isEqualTo(new Claimed(9));
        assertThat(new New().afterProgressRead(progress(OWN, 9))).isEqualTo(new New());
    }

    @Test
    void progressReadAfterTheFenceMakesItOwned() {
        assertThat(new Fenced(9).afterProgressRead(progress(OTHER, 4))).isEqualTo(new Owned(9))
                .matches(PartitionState::writable);
        assertThat(new Fenced(9).afterProgressRead(noProgress())).isEqualTo(new Owned(9));
    }

    @Test
    void progressUnderALaterClaimAfterTheFenceMeansLost() {
        assertThat(new Fenced(9).afterProgressRead(progress(OTHER, 12))).isEqualTo(new Lost(OTHER, 12));
    }

    @Test
    void aLaterClaimOfAnotherIdLosesAnOwnedPartition() {
        // row 1: the zombie re-inits and reads the claimant's claim above its own
        assertThat(read(new Owned(9), claim(12, OTHER), OptionalLong.of(9), progress(OWN, 9)))
                .isEqualTo(new Lost(OTHER, 12)).matches(state -> !state.writable());
    }

    @Test
    void aLaterClaimOfAnotherIdFoundAfterTheOwnClaimLosesItAtOnce() {
        // step 3, row 3: T1's read after its claim shows T2's claim above it
        assertThat(read(new Claimed(9), claim(12, OTHER), none(), noProgress())).isEqualTo(new Lost(OTHER, 12));
        assertThat(read(new Fenced(9), claim(12, OTHER), OptionalLong.of(9), noProgress()))
                .isEqualTo(new Lost(OTHER, 12));
    }

    @Test
    void anOwnedPartitionWhoseClaimIsStillTheLatestStaysOwned() {
        // 2.5 and row 5: after a re-init q's own claim is the latest and its fence returned here
        assertThat(read(new Owned(9), claim(9, OWN), OptionalLong.of(9), noProgress())).isEqualTo(new Owned(9));
        assertThat(read(new Owned(9), claim(9, OWN), none(), progress(OWN, 9))).isEqualTo(new Owned(9));
    }

    @Test
    void aFenceTimeoutThenAReinitKeepsThePartitionClaimed() {
        // row 19, review 2(a): the re-init's read finds the own claim; the fence never returned
        PartitionState state = read(new New(), claim(9, OWN), none(), noProgress()).afterFence(9, TIMED_OUT);

        assertThat(read(state, claim(9, OWN), none(), noProgress())).isEqualTo(new Claimed(9));
    }

    @Test
    void anEagerCloseOfAClaimedPartitionFencesAgainOnReopenButNotAFencedOne() {
        // row 20, review 2(b): only a fence that returned is remembered across close
        FenceMemory memory = new FenceMemory();
        PartitionState pending = read(new New(), claim(9, OWN), memory.of(P), noProgress()).afterFence(9, TIMED_OUT);
        assertThat(pending).isEqualTo(new Claimed(9));

        assertThat(read(PartitionState.opened(), claim(9, OWN), memory.of(P), noProgress())).isEqualTo(new Claimed(9));

        memory.fenceReturned(P, 9);
        assertThat(read(PartitionState.opened(), claim(9, OWN), memory.of(P), noProgress())).isEqualTo(new Fenced(9));
    }

    @Test
    void aClaimCommitReportedFailedButCommittedIsFoundWithoutProof() {
        // row 21, review 2(c): whatever the commit said, step 1 finds the own claim as the latest, unfenced
        assertThat(read(new New(), claim(9, OWN), none(), progress(OTHER, 4))).isEqualTo(new Claimed(9));
    }

    @Test
    void aLostPartitionStaysLostUntilAReclaim() {
        PartitionState lost = new Lost(OTHER, 12);

        assertThat(read(lost, claim(14, "copy:task#3.0"), none(), noProgress())).isEqualTo(lost);
        assertThat(lost.afterFence(12, DONE)).isEqualTo(lost);
        assertThat(lost.afterProgressRead(progress(OTHER, 12))).isEqualTo(lost);
        assertThat(read(lost, claim(15, OWN), none(), noProgress())).isEqualTo(new Claimed(15));
    }

    @Test
    void theMemoryKeepsTheLatestClaimWhoseFenceReturned() {
        FenceMemory memory = new FenceMemory();
        memory.fenceReturned(P, 9);
        memory.fenceReturned(P, 4);

        assertThat(memory.of(P)).hasValue(9);
        assertThat(memory.of(new TopicPartition("orders", 4))).isEmpty();
    }

    private static PartitionState read(PartitionState state, At<OwnershipRecord> latest, OptionalLong fenceReturned,
                                       Optional<Holder> progress) {
        return state.afterClaimsRead(Optional.of(latest), OWN, fenceReturned, progress);
    }

    private static At<OwnershipRecord> claim(long offset, String holder) {
        return new At<>(offset, new OwnershipRecord(P, holder));
    }

    private static OptionalLong none() {
        return OptionalLong.empty();
    }

    private static Optional<Holder> noProgress() {
        return Optional.empty();
    }

    private static Optional<Holder> progress(String holder, long claim) {
        return Optional.of(new Holder(holder, claim));
    }
}
