package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * How much of a put the opening of partitions may take (design 2.4, review finding 10). {@code open} makes no round
 * trip (Connect fails the task for good on any exception from it); the steps run in {@code put}, one stage at a time,
 * and a put starts a stage only if the stage's bound fits what is left of the put's budget:
 * {@code consumer.override.max.poll.interval.ms} minus {@code target.producer.max.block.ms}, the budget the commit
 * path already validates against, so the put that also commits still returns before the consumer leaves the group.
 *
 * <table>
 * <caption>A stage's bound</caption>
 * <tr><th>stage</th><th>bound</th></tr>
 * <tr><td>a read of the progress topic</td><td>{@code progress.read.timeout.ms}</td></tr>
 * <tr><td>a describe, a fence</td><td>{@code target.admin.default.api.timeout.ms}</td></tr>
 * <tr><td>a commit (a claim, the facts of 2.7)</td><td>{@code target.producer.max.block.ms}</td></tr>
 * </table>
 */
public final class StageBudget {

    /** The kinds of stage, by the setting that bounds them. */
    enum Stage { READ, DESCRIBE, FENCE, COMMIT }

    private final Duration budget;
    private final Duration read;
    private final Duration admin;
    private final Duration commit;
    private final Clock clock;

    /**
     * {@code maxPollInterval}, {@code maxBlock}, {@code progressRead} and {@code adminTimeout}: the settings named in
     * the class comment. The configuration validates that every bound fits the budget; a bound that does not would
     * never run, so it is refused here too.
     */
    public StageBudget(Duration maxPollInterval, Duration maxBlock, Duration progressRead, Duration adminTimeout,
                Clock clock) {
        this.budget = maxPollInterval.minus(maxBlock);
        this.read = progressRead;
        this.admin = adminTimeout;
        this.commit = maxBlock;
        this.clock = clock;
        for (Stage stage : Stage.values()) {
            if (bound(stage).compareTo(budget) > 0) {
                throw new IllegalArgumentException("a " + stage + " stage may take " + bound(stage).toMillis()
                        + " ms, more than a put's budget of " + budget.toMillis() + " ms (max.poll.interval.ms minus "
                        + "target.producer.max.block.ms)");
            }
        }
    }

    Duration bound(Stage stage) {
        return switch (stage) {
            case READ -> read;
            case DESCRIBE, FENCE -> admin;
            case COMMIT -> commit;
        };
    }

    /** A put starting now. */
    public Put startPut() {
        return new Put(clock.instant().plus(budget));
    }

    /** One put's budget: stages may start while their bound ends by {@code ends}. */
    public final class Put {

        private final Instant ends;

        private Put(Instant ends) {
            this.ends = ends;
        }

        /** Whether {@code stage} may start now: its whole bound fits what is left of the budget. */
        boolean mayStart(Stage stage) {
            return !clock.instant().plus(bound(stage)).isAfter(ends);
        }

        /** What is left of the budget now, zero once spent. */
        Duration left() {
            Duration left = Duration.between(clock.instant(), ends);
            return left.isNegative() ? Duration.ZERO : left;
        }
    }
}
