package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.Holder;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/** Rule F (design 2.2) row by row, with the section 4 rows it decides. */
class FenceSetTest {

    private static final TopicPartition P = new TopicPartition("orders", 3);
    private static final TopicPartition Q = new TopicPartition("orders", 4);
    private static final String T0 = "copy:task#0.0";
    private static final String T1 = "copy:task#1.0";
    private static final String T2 = "copy:task#2.0";
    private static final String T3 = "copy:task#3.0";

    @Test
    void withoutProgressEveryOtherClaimantBelowTheOwnClaimIsFenced() {
        List<At<OwnershipRecord>> claims = List.of(claim(0, P, T0), claim(1, P, T1), claim(2, P, T2));

        assertThat(FenceSet.of(P, T2, 2, claims, Optional.empty())).containsExactly(T0, T1);
    }

    @Test
    void theProgressHolderIsFencedAndClaimsAtOrBelowItsClaimAreNot() {
        List<At<OwnershipRecord>> claims = List.of(claim(0, P, T3), claim(4, P, T0), claim(7, P, T2));

        assertThat(FenceSet.of(P, T2, 7, claims, progress(T0, 4))).containsExactly(T0);
    }

    @Test
    void claimsAboveTheProgressAndBelowTheOwnClaimAreFenced() {
        // row 4: T1's concurrent claim lies above P, so T2 fences it although T1 never wrote
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T0), claim(9, P, T1), claim(10, P, T2));

        assertThat(FenceSet.of(P, T2, 10, claims, progress(T0, 4))).containsExactly(T0, T1);
    }

    @Test
    void claimsAtOrAboveTheOwnClaimAreNotTheClaimantsToFence() {
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T0), claim(9, P, T2), claim(12, P, T1));

        assertThat(FenceSet.of(P, T2, 9, claims, progress(T0, 4))).containsExactly(T0);
    }

    @Test
    void theOwnIdIsLeftOutAsHolderAndAsClaimant() {
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T1), claim(6, P, T0), claim(9, P, T1));

        assertThat(FenceSet.of(P, T1, 9, claims, progress(T1, 4))).containsExactly(T0);
    }

    @Test
    void aStaleProgressRecordOnlyAddsIds() {
        List<At<OwnershipRecord>> claims = List.of(claim(2, P, T3), claim(4, P, T0), claim(6, P, T1), claim(9, P, T2));

        Set<String> fresh = FenceSet.of(P, T2, 9, claims, progress(T1, 6));
        Set<String> stale = FenceSet.of(P, T2, 9, claims, progress(T0, 4));
        Set<String> none = FenceSet.of(P, T2, 9, claims, Optional.empty());

        assertThat(fresh).containsExactly(T1);
        assertThat(stale).containsExactly(T0, T1).containsAll(fresh);
        assertThat(none).containsExactly(T0, T1, T3).containsAll(stale);
    }

    @Test
    void aResetTombstoneFencesEveryIdHoldingAClaim() {
        // after the offsets API's reset p has no progress record: more fences once, never fewer
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T0), claim(6, P, "copy:offsets#0"), claim(9, P, T2));

        assertThat(FenceSet.of(P, T2, 9, claims, Optional.empty())).containsExactlyInAnyOrder(T0, "copy:offsets#0");
    }

    @Test
    void claimsOfOtherPartitionsAreIgnored() {
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T0), claim(5, Q, T1), claim(9, P, T2));

        assertThat(FenceSet.of(P, T2, 9, claims, progress(T0, 4))).containsExactly(T0);
    }

    @Test
    void claimsNamingARetiredTaskIdFenceIt() {
        // row 13: tasks.max 4 -> 2, task#3's partition goes to task#0; no task uses task#3.0 any more
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T3), claim(9, P, T0));

        assertThat(FenceSet.of(P, T0, 9, claims, progress(T3, 4))).containsExactly(T3);
    }

    @Test
    void aClaimantThatDiedBeforeFencingIsFencedByTheNext() {
        // row 8: P is T0's progress under c0 = 4; T1 claimed at 6 and died before its fence; T2 claims at 9
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T0), claim(6, P, T1), claim(9, P, T2));

        assertThat(FenceSet.of(P, T2, 9, claims, progress(T0, 4))).containsExactly(T0, T1);
    }

    @Test
    void aLateClaimFromAZombieOpenFencesTheEarlierClaimantWhetherOrNotItWrote() {
        // row 3: T1 claimed at 6, fenced T0 and maybe wrote under 6; zombie T2 claims at 9
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T0), claim(6, P, T1), claim(9, P, T2));

        assertThat(FenceSet.of(P, T2, 9, claims, progress(T0, 4))).containsExactly(T0, T1);
        assertThat(FenceSet.of(P, T2, 9, claims, progress(T1, 6))).containsExactly(T1);
    }

    @Test
    void aConcurrentClaimantLearntInMemoryIsFencedFromTheLogWhenTheLaterClaimantDies() {
        // row 22 (review finding 1): T1 claims c1 = 6 over T0's c0 = 4; zombie T2 claims c2 = 8 and dies; T3 claims
        List<At<OwnershipRecord>> claims = List.of(claim(4, P, T0), claim(6, P, T1), claim(8, P, T2), claim(11, P, T3));

        assertThat(FenceSet.of(P, T3, 11, claims, progress(T0, 4))).containsExactly(T0, T1, T2);
        assertThat(FenceSet.of(P, T3, 11, claims, progress(T1, 6))).containsExactly(T1, T2);
    }

    @Test
    void theSetIsBoundedByTheIdsInUseWhateverTheNumberOfClaims() {
        List<At<OwnershipRecord>> claims = new ArrayList<>();
        for (int offset = 0; offset < 1000; offset++) {
            claims.add(claim(offset, P, "copy:task#" + (offset % 3) + ".0"));
        }

        assertThat(FenceSet.of(P, T3, 1000, claims, Optional.empty()))
                .containsExactly("copy:task#0.0", "copy:task#1.0", T2);
    }

    private static At<OwnershipRecord> claim(long offset, TopicPartition source, String holder) {
        return new At<>(offset, new OwnershipRecord(source, holder));
    }

    private static Optional<Holder> progress(String holder, long claim) {
        return Optional.of(new Holder(holder, claim));
    }
}
