package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Clean;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Look;
import dev.quarantine.connect.sink.cluster.WrittenCheck.ProgressAborted;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Redo;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Wait;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord.Holder;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;

/** {@link WrittenCheck}'s table, row by row (design 2.7.1 step 3). */
class WrittenCheckTest {

    private static final TopicPartition TARGET = new TopicPartition("orders-copy", 3);
    private static final TopicPartition DLQ_0 = new TopicPartition("orders-dlq", 0);
    private static final TopicPartition DLQ_1 = new TopicPartition("orders-dlq", 1);

    /** Progress at next=500 whose transaction C wrote the target from source offset 400 and two DLQ partitions. */
    private static final ProgressRecord PROGRESS = new ProgressRecord(400, 500, Uuid.randomUuid(), Optional.empty(),
            Map.of("orders-copy", 8), Optional.empty()).withOwnership(new Holder("copy:task#0.0", 17), Map.of(
            TARGET, new Written(1_000, 1_090, 400),
            DLQ_0, new Written(50, 52, 400),
            DLQ_1, new Written(70, 71, 380)));

    @Test
    void everyRecordAtFirstVisibleIsClean() {
        assertThat(WrittenCheck.decide(PROGRESS, looks(AtFirst.VISIBLE, AtFirst.VISIBLE, AtFirst.VISIBLE)))
                .isEqualTo(new Clean(Set.of()));
    }

    @Test
    void aProgressWithoutLinesIsClean() {
        ProgressRecord none = new ProgressRecord(400, 500, Uuid.randomUuid(), Optional.empty(), Map.of(),
                Optional.empty());
        assertThat(WrittenCheck.decide(none, Map.of())).isEqualTo(new Clean(Set.of()));
    }

    @Test
    void aLineWhoseFirstRetentionDeletedIsNamedButNotRedone() {
        assertThat(WrittenCheck.decide(PROGRESS, looks(AtFirst.VISIBLE, AtFirst.DELETED, AtFirst.VISIBLE)))
                .isEqualTo(new Clean(Set.of(DLQ_0)));
    }

    /** Review finding MEDIUM-9: a first record a compacted topic's cleaner removed tells nothing; not redone. */
    @Test
    void aLineWhoseFirstTheCleanerRemovedIsNamedButNotRedone() {
        assertThat(WrittenCheck.decide(PROGRESS, looks(AtFirst.COMPACTED, AtFirst.VISIBLE, AtFirst.VISIBLE)))
                .isEqualTo(new Clean(Set.of(TARGET)));
    }

    @Test
    void anAbortedLineIsRedoneFromItsOwnFrom() {
        Redo redo = (Redo) WrittenCheck.decide(PROGRESS, looks(AtFirst.ABORTED, AtFirst.VISIBLE, AtFirst.VISIBLE));

        assertThat(redo).isEqualTo(new Redo(400, 500, Map.of(TARGET, 400L), Set.of()));
        assertThat(redo.lost()).containsExactly(TARGET);
    }

    @Test
    void severalAbortedLinesGoBackToTheSmallestFromEachKeepingItsOwnStart() {
        assertThat(WrittenCheck.decide(PROGRESS, looks(AtFirst.ABORTED, AtFirst.DELETED, AtFirst.ABORTED)))
                .isEqualTo(new Redo(380, 500, Map.of(TARGET, 400L, DLQ_1, 380L), Set.of(DLQ_0)));
    }

    @Test
    void aHeldBackLineWaitsEvenWhenAnotherIsAborted() {
        assertThat(WrittenCheck.decide(PROGRESS, looks(AtFirst.ABORTED, AtFirst.HELD_BACK, AtFirst.VISIBLE)))
                .isEqualTo(new Wait(Set.of(DLQ_0)));
    }

    @Test
    void aLineWhoseRecordsAreGoneIsNamedNotRedone() {
        // past the end: its topic deleted and created again (the dead-letter topic, TopicFaultsIT), or an unclean
        // election; what is gone cannot be read to tell committed from aborted
        assertThat(WrittenCheck.decide(PROGRESS, looks(AtFirst.MISSING, AtFirst.VISIBLE, AtFirst.ABORTED)))
                .isEqualTo(new Redo(380, 500, Map.of(DLQ_1, 380L), Set.of(TARGET)));
    }

    @Test
    void aRecordVisibleAfterTheEndMeansTheProgressRecordWasAbortedAndIsNeverRedoneFrom() {
        Map<TopicPartition, Look> looks = looks(AtFirst.VISIBLE, AtFirst.ABORTED, AtFirst.VISIBLE);
        looks.put(TARGET, new Look(AtFirst.VISIBLE, OptionalLong.of(1_093)));

        assertThat(WrittenCheck.decide(PROGRESS, looks)).isEqualTo(new ProgressAborted(TARGET, 1_093));
    }

    @Test
    void aHeldBackLineWaitsBeforeTheEndCheckDecides() {
        Map<TopicPartition, Look> looks = looks(AtFirst.VISIBLE, AtFirst.HELD_BACK, AtFirst.VISIBLE);
        looks.put(TARGET, new Look(AtFirst.VISIBLE, OptionalLong.of(1_093)));

        assertThat(WrittenCheck.decide(PROGRESS, looks)).isEqualTo(new Wait(Set.of(DLQ_0)));
    }

    /** A review finding: a transaction of the source partition left open right after C's end is waited for. */
    @Test
    void aTransactionOpenAfterTheEndOfAVisibleLineWaitsInsteadOfBeingClean() {
        Map<TopicPartition, Look> looks = looks(AtFirst.VISIBLE, AtFirst.VISIBLE, AtFirst.VISIBLE);
        looks.put(TARGET, new Look(AtFirst.VISIBLE, OptionalLong.empty(), true));

        assertThat(WrittenCheck.decide(PROGRESS, looks)).isEqualTo(new Wait(Set.of(TARGET)));
    }

    @Test
    void aLineWithoutALookIsAProgrammingError() {
        Map<TopicPartition, Look> looks = looks(AtFirst.VISIBLE, AtFirst.VISIBLE, AtFirst.VISIBLE);
        looks.remove(DLQ_1);

        assertThatThrownBy(() -> WrittenCheck.decide(PROGRESS, looks)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("written.orders-dlq-1");
    }

    private static Map<TopicPartition, Look> looks(AtFirst target, AtFirst dlq0, AtFirst dlq1) {
        return new java.util.HashMap<>(Map.of(TARGET, Look.of(target), DLQ_0, Look.of(dlq0), DLQ_1, Look.of(dlq1)));
    }
}
