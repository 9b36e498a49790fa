package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.TestData.props;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@link ConfigRules#writeBound} and the one-attempt rule, row by row: a put's attempts end in time for what the
 * attempt started last may still wait (a send, the wait for its acknowledgements, the commit and the abort, each up to
 * max.block.ms, the look after an abort of the slot's own, up to {@link ConfigRules#AFTER_ABORT_BOUND}, and the
 * readying of the topics it writes, up to {@link ConfigRules#PREPARE_BOUND}); and {@link ConfigRules#sendsAhead}.
 */
class ConfigRulesTest {

    @Test
    void boundsThePutsAttemptsByTheMaxPollIntervalLessFourMaxBlocksTheWaitAfterAnOwnAbortAndTheTopicsReadying() {
        assertThat(bound()).as("Kafka's defaults: 300 s - 4 x 60 s - 5 s - 5 s").isEqualTo(Duration.ofSeconds(50));
        assertThat(bound("consumer.override.max.poll.interval.ms", "100000", "target.producer.max.block.ms", "10000"))
                .as("100 s - 4 x 10 s - 5 s - 5 s").isEqualTo(Duration.ofSeconds(50));
    }

    @Test
    void noLongerCountsTheTargetAdminsRequestTimeoutForNoAdminCallIsMadeAroundAnAbort() {
        // the look before an abort (describeTransactions, describeProducers) is gone with the old write path
        assertThat(bound("consumer.override.max.poll.interval.ms", "100000", "target.producer.max.block.ms", "10000",
                "target.admin.request.timeout.ms", "50000")).as("100 s - 4 x 10 s - 5 s - 5 s")
                .isEqualTo(Duration.ofSeconds(50));
    }

    @Test
    void leavesOneAttemptNeverANegativeBound() {
        assertThat(bound("consumer.override.max.poll.interval.ms", "100000", "target.producer.max.block.ms", "40000"))
                .isEqualTo(Duration.ZERO);
    }

    @Test
    void refusesAMaxBlockWithWhichOneAttemptCouldOutliveThePollIntervalNamingEachSetting() {
        Map<String, String> props = valid("target.producer.max.block.ms", "74000");

        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(props)))
                .containsOnlyKeys("target.producer.max.block.ms");
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(props)).get("target.producer.max.block.ms"))
                .singleElement().asString().contains("306000 ms").contains("plus 5000 ms (the look")
                .contains("plus 5000 ms (readying the topics it writes)")
                .contains("consumer.override.max.poll.interval.ms=300000")
                .doesNotContain("target.admin.request.timeout.ms");
        props.put("consumer.override.max.poll.interval.ms", "306001");
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(props))).isEmpty();
    }

    @Test
    void countsTheWaitAfterAnOwnAbortInOneAttempt() {
        // 4 x 72.5 s = 290 s alone would end before the 300 s poll interval; with the 5 s after an abort and the 5 s
        // readying the topics it does not
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(valid("target.producer.max.block.ms",
                "72500")))).containsOnlyKeys("target.producer.max.block.ms");
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(valid("target.producer.max.block.ms",
                "72499")))).isEmpty();
    }

    @Test
    void acceptsKafkasDefaults() {
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(valid()))).isEmpty();
    }

    /** A transaction begun ahead lasts about commit.interval.ms plus the write: kept within the transaction timeout. */
    @Test
    void sendsAheadOfTheTriggerOnlyWhenTheIntervalIsAboveZeroAndAtMostHalfTheTransactionTimeout() {
        assertThat(sendsAhead()).as("100 ms, 60 s").isTrue();
        assertThat(sendsAhead("commit.interval.ms", "0")).as("every put is its own trigger").isFalse();
        assertThat(sendsAhead("commit.interval.ms", "30000")).as("30 s of 60 s").isTrue();
        assertThat(sendsAhead("commit.interval.ms", "30001")).isFalse();
        assertThat(sendsAhead("commit.interval.ms", "500", "target.producer.transaction.timeout.ms", "900"))
                .isFalse();
        assertThat(sendsAhead("commit.interval.ms", "500", "target.producer.transaction.timeout.ms", "1000"))
                .isTrue();
    }

    private static boolean sendsAhead(String... settings) {
        return ConfigRules.sendsAhead(new TransactionalSinkConfig(valid(settings)));
    }

    private static Duration bound(String... settings) {
        return ConfigRules.writeBound(new TransactionalSinkConfig(valid(settings)));
    }

    private static Map<String, String> valid(String... settings) {
        Map<String, String> props = props("name", "orders-copy", "topics", "orders", "target.bootstrap.servers",
                "target:9092", "target.topic.format", "copy.${topic}", "dlq.topic.name", "dead-letters");
        props.putAll(props(settings));
        return props;
    }
}
