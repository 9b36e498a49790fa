package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class RecentCommitsTest {

    private static final TopicPartition TARGET = new TopicPartition("copy.orders", 0);
    private static final TopicPartition OTHER = new TopicPartition("copy.orders", 1);
    private static final TopicPartition DLQ = new TopicPartition("orders.dlq", 0);

    private final RecentCommits commits = new RecentCommits();

    @Test
    void anOpenTransactionStartingAtACommitsRecordHoldsItAndIsRedoneFromItsFirstSourceOffset() {
        commits.committed(0, Map.of(TARGET, 9L));
        commits.committed(10, Map.of(TARGET, 14L));

        assertThat(commits.heldOpen(Map.of(TARGET, 10L)))
                .contains(new RecentCommits.HeldOpen(10, Set.of(TARGET)));
    }

    @Test
    void anOpenTransactionStartingAfterEveryCommitsRecordIsTheFailingOneItself() {
        commits.committed(0, Map.of(TARGET, 9L));
        commits.committed(10, Map.of(TARGET, 14L));

        assertThat(commits.heldOpen(Map.of(TARGET, 15L))).isEmpty();
    }

    @Test
    void anOpenTransactionOnAPartitionNoCommitWroteHoldsNothing() {
        commits.committed(10, Map.of(TARGET, 14L));

        assertThat(commits.heldOpen(Map.of(OTHER, 3L))).isEmpty();
    }

    @Test
    void twoCommitsLeftOpenInARowAreRedoneFromTheFirst() {
        commits.committed(0, Map.of(TARGET, 9L));
        commits.committed(10, Map.of(TARGET, 14L, DLQ, 2L));
        commits.committed(15, Map.of(TARGET, 19L));

        assertThat(commits.heldOpen(Map.of(TARGET, 10L, DLQ, 2L)))
                .contains(new RecentCommits.HeldOpen(10, Set.of(TARGET, DLQ)));
    }

    @Test
    void onlyThePartitionsWhereACommitIsHeldAreRedone() {
        commits.committed(10, Map.of(TARGET, 14L, OTHER, 7L));

        assertThat(commits.heldOpen(Map.of(TARGET, 10L, OTHER, 8L)))
                .contains(new RecentCommits.HeldOpen(10, Set.of(TARGET)));
    }

    @Test
    void anOpenTransactionOlderThanEveryRememberedCommitIsRedoneFromTheOldestRemembered() {
        for (long from = 0; from < RecentCommits.REMEMBERED + 2; from++) {
            commits.committed(from * 10, Map.of(TARGET, from * 10 + 9));
        }

        assertThat(commits.heldOpen(Map.of(TARGET, 0L)))
                .contains(new RecentCommits.HeldOpen(20, Set.of(TARGET)));
    }

    @Test
    void aCommitWithoutRecordsIsNotRememberedAndNothingIsLookedAtBeforeAnyCommitWithRecords() {
        commits.committed(10, Map.of());

        assertThat(commits.any()).isFalse();
        assertThat(commits.partitions()).isEmpty();
    }

    @Test
    void looksAtThePartitionsTheRememberedCommitsWrote() {
        commits.committed(10, Map.of(TARGET, 14L));
        commits.committed(15, Map.of(DLQ, 3L));

        assertThat(commits.any()).isTrue();
        assertThat(commits.partitions()).containsExactlyInAnyOrder(TARGET, DLQ);
    }
}
