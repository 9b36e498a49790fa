package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.StageBudget.Put;
import dev.quarantine.connect.sink.ownership.StageBudget.Stage;
import dev.quarantine.sandbox.MovableClock;

/** Design 2.4's put budget (review finding 10): a stage starts only if its whole bound fits what is left. */
class StageBudgetTest {

    private static final Duration POLL = Duration.ofMinutes(5);
    private static final Duration BLOCK = Duration.ofMinutes(1);
    private static final Duration READ = Duration.ofSeconds(30);
    private static final Duration ADMIN = Duration.ofMinutes(1);

    private final MovableClock clock = new MovableClock();
    private final StageBudget budget = new StageBudget(POLL, BLOCK, READ, ADMIN, clock);

    @Test
    void eachStageIsBoundByItsSetting() {
        assertThat(budget.bound(Stage.READ)).isEqualTo(READ);
        assertThat(budget.bound(Stage.DESCRIBE)).isEqualTo(ADMIN);
        assertThat(budget.bound(Stage.FENCE)).isEqualTo(ADMIN);
        assertThat(budget.bound(Stage.COMMIT)).isEqualTo(BLOCK);
    }

    @Test
    void aPutsBudgetIsThePollIntervalLessTheCommitsBlock() {
        assertThat(budget.startPut().left()).isEqualTo(Duration.ofMinutes(4));
    }

    @Test
    void aStageStartsWhileItsWholeBoundFits() {
        Put put = budget.startPut();
        clock.advance(Duration.ofMinutes(3));

        assertThat(put.mayStart(Stage.FENCE)).isTrue();
        assertThat(put.mayStart(Stage.READ)).isTrue();
    }

    @Test
    void aStageWhoseBoundExceedsWhatIsLeftWaitsForTheNextPut() {
        Put put = budget.startPut();
        clock.advance(Duration.ofMinutes(3).plusSeconds(1));

        assertThat(put.mayStart(Stage.FENCE)).isFalse();
        assertThat(put.mayStart(Stage.READ)).isTrue();
        assertThat(budget.startPut().mayStart(Stage.FENCE)).isTrue();
    }

    @Test
    void stagesAnsweredAtTheirFullBoundNeverOverrunTheBudget() {
        // row 29: every read and fence takes its whole bound; the put runs stages in order while they fit
        Stage[] order = {Stage.READ, Stage.COMMIT, Stage.READ, Stage.DESCRIBE, Stage.COMMIT, Stage.FENCE, Stage.READ};
        Instant start = clock.instant();
        Put put = budget.startPut();
        int ran = 0;
        while (ran < order.length && put.mayStart(order[ran])) {
            clock.advance(budget.bound(order[ran]));
            ran++;
        }

        assertThat(ran).isEqualTo(5);
        assertThat(Duration.between(start, clock.instant())).isLessThanOrEqualTo(POLL.minus(BLOCK));
        assertThat(budget.startPut().mayStart(order[ran])).isTrue();
    }

    @Test
    void aSpentBudgetLeavesNothing() {
        Put put = budget.startPut();
        clock.advance(Duration.ofMinutes(6));

        assertThat(put.left()).isEqualTo(Duration.ZERO);
        assertThat(put.mayStart(Stage.READ)).isFalse();
    }

    @Test
    void aStageThatCouldNeverFitAPutIsRefusedNamingTheSettings() {
        assertThatThrownBy(() -> new StageBudget(Duration.ofMinutes(1), Duration.ofSeconds(30), READ,
                Duration.ofSeconds(40), clock))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max.poll.interval.ms").hasMessageContaining("target.producer.max.block.ms");
    }
}
