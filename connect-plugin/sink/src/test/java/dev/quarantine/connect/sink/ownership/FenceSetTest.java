package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

    /**
     * The rows where one fence set is asked for: {@code own} asks for the ids to fence on {@code P} after its claim at
     * {@code ownClaim}, from {@code claims} and the progress record's holder, if any.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void fencesTheClaimantsOfTheRow(String row, String own, long ownClaim, Optional<Holder> progress,
                                    List<String> fenced, List<At<OwnershipRecord>> claims) {
        assertThat(FenceSet.of(P, own, ownClaim, claims, progress)).containsExactlyElementsOf(fenced);
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                row("withoutProgressEveryOtherClaimantBelowTheOwnClaimIsFenced", T2, 2, Optional.empty(),
                        List.of(T0, T1), claim(0, P, T0), claim(1, P, T1), claim(2, P, T2)),
                row("theProgressHolderIsFencedAndClaimsAtOrBelowItsClaimAreNot", T2, 7, progress(T0, 4),
                        List.of(T0), claim(0, P, T3), claim(4, P, T0), claim(7, P, T2)),
                // row 4: T1's concurrent claim lies above P, so T2 fences it although T1 never wrote
                row("claimsAboveTheProgressAndBelowTheOwnClaimAreFenced", T2, 10, progress(T0, 4),
                        List.of(T0, T1), claim(4, P, T0), claim(9, P, T1), claim(10, P, T2)),
                row("claimsAtOrAboveTheOwnClaimAreNotTheClaimantsToFence", T2, 9, progress(T0, 4),
                        List.of(T0), claim(4, P, T0), claim(9, P, T2), claim(12, P, T1)),
                row("theOwnIdIsLeftOutAsHolderAndAsClaimant", T1, 9, progress(T1, 4),
                        List.of(T0), claim(4, P, T1), claim(6, P, T0), claim(9, P, T1)),
                row("claimsOfOtherPartitionsAreIgnored", T2, 9, progress(T0, 4),
                        List.of(T0), claim(4, P, T0), claim(5, Q, T1), claim(9, P, T2)),
                // row 13: tasks.max 4 -> 2, task#3's partition goes to task#0; no task uses task#3.0 any more
                row("claimsNamingARetiredTaskIdFenceIt", T0, 9, progress(T3, 4),
                        List.of(T3), claim(4, P, T3), claim(9, P, T0)),
                // row 8: P is T0's progress under c0 = 4; T1 claimed at 6 and died before its fence; T2 claims at 9
                row("aClaimantThatDiedBeforeFencingIsFencedByTheNext", T2, 9, progress(T0, 4),
                        List.of(T0, T1), claim(4, P, T0), claim(6, P, T1), claim(9, P, T2)));
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

    @SafeVarargs
    private static Arguments row(String row, String own, long ownClaim, Optional<Holder> progress,
                                 List<String> fenced, At<OwnershipRecord>... claims) {
        return Arguments.of(row, own, ownClaim, progress, fenced, List.of(claims));
    }

    private static At<OwnershipRecord> claim(long offset, TopicPartition source, String holder) {
        return new At<>(offset, new OwnershipRecord(source, holder));
    }

    private static Optional<Holder> progress(String holder, long claim) {
        return Optional.of(new Holder(holder, claim));
    }
}
