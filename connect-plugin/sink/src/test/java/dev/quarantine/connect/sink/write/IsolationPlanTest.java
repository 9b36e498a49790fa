package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.write.IsolationPlan.Position;
import dev.quarantine.connect.sink.write.IsolationPlan.Range;
import dev.quarantine.connect.sink.write.IsolationPlan.Step;

/** The rows of {@link IsolationPlan}'s table: which transactions follow a rejection, across partitions. */
class IsolationPlanTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    @Test
    void writesEverythingInOneTransactionWhenNothingIsRejected() {
        IsolationPlan plan = new IsolationPlan(ranges(P0, 0, 3, P1, 5, 8), Set.of());

        assertThat(plan.next()).hasValue(new Step(ranges(P0, 0, 3, P1, 5, 8), Set.of()));
        plan.committed();
        assertThat(plan.next()).isEmpty();
    }

    /** Carried over from {@code PartitionWriterTest.isolatesTheRecordTheBrokerRejectsAndDeadLettersItBetween...}. */
    @Test
    void commitsTheOtherPartitionsAndTheRecordsBeforeThenTriesTheRecordAloneThenDeadLettersItThenTheRest() {
        IsolationPlan plan = new IsolationPlan(ranges(P0, 0, 3, P1, 5, 8), Set.of());

        plan.rejected(P1, 6);
        List<Step> written = new ArrayList<>(List.of(commit(plan)));
        plan.rejected(P1, 6);
        written.addAll(List.of(commit(plan), commit(plan)));

        assertThat(written).containsExactly(
                new Step(ranges(P0, 0, 3, P1, 5, 6), Set.of()),
                new Step(Map.of(P1, new Range(6, 7)), Set.of(new Position(P1, 6))),
                new Step(Map.of(P1, new Range(7, 8)), Set.of()));
        assertThat(plan.next()).isEmpty();
    }

    @Test
    void writesTheRecordAgainAsItselfWhenItCommitsAlone() {
        IsolationPlan plan = new IsolationPlan(ranges(P0, 0, 3, P1, 5, 8), Set.of());

        plan.rejected(P0, 0);

        assertThat(commit(plan)).as("P0 has nothing before offset 0").isEqualTo(new Step(Map.of(P1, new Range(5, 8)),
                Set.of()));
        assertThat(commit(plan)).isEqualTo(new Step(Map.of(P0, new Range(0, 1)), Set.of()));
        assertThat(commit(plan)).isEqualTo(new Step(Map.of(P0, new Range(1, 3)), Set.of()));
        assertThat(plan.next()).isEmpty();
    }

    @Test
    void splitsATransactionBeforeTheRecordAgainWhenItIsRejectedToo() {
        IsolationPlan plan = new IsolationPlan(ranges(P0, 0, 3, P1, 5, 8), Set.of());

        plan.rejected(P1, 7);
        plan.rejected(P0, 1);

        assertThat(plan.next()).hasValue(new Step(ranges(P0, 0, 1, P1, 5, 7), Set.of()));
        commit(plan);
        assertThat(plan.next()).hasValue(new Step(Map.of(P0, new Range(1, 2)), Set.of()));
        commit(plan);
        assertThat(plan.next()).as("P0's rest, before the earlier split's P1@7 alone")
                .hasValue(new Step(Map.of(P0, new Range(2, 3)), Set.of()));
        commit(plan);
        assertThat(plan.next()).hasValue(new Step(Map.of(P1, new Range(7, 8)), Set.of()));
    }

    @Test
    void keepsRecordsKnownAsPoisonAsDeadLettersInEveryStepThatHoldsThem() {
        IsolationPlan plan = new IsolationPlan(ranges(P0, 0, 3, P1, 5, 8), Set.of(new Position(P0, 2)));

        plan.rejected(P1, 6);

        assertThat(plan.next()).hasValue(new Step(ranges(P0, 0, 3, P1, 5, 6), Set.of(new Position(P0, 2))));
    }

    @Test
    void refusesARejectionOfARecordTheStepDoesNotWriteAsItself() {
        IsolationPlan plan = new IsolationPlan(ranges(P0, 0, 3, P1, 5, 8), Set.of(new Position(P0, 2)));

        assertThatThrownBy(() -> plan.rejected(P0, 3)).isInstanceOf(IllegalArgumentException.class);
        IsolationPlan again = new IsolationPlan(ranges(P0, 0, 3, P1, 5, 8), Set.of(new Position(P0, 2)));
        assertThatThrownBy(() -> again.rejected(P0, 2)).as("a dead letter refused is fatal, never rejected")
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Step commit(IsolationPlan plan) {
        Step step = plan.next().orElseThrow();
        plan.committed();
        return step;
    }

    private static Map<TopicPartition, Range> ranges(TopicPartition a, long aFrom, long aTo, TopicPartition b,
                                                     long bFrom, long bTo) {
        Map<TopicPartition, Range> ranges = new LinkedHashMap<>();
        ranges.put(a, new Range(aFrom, aTo));
        ranges.put(b, new Range(bFrom, bTo));
        return ranges;
    }
}
