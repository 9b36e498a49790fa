package dev.quarantine.connect.sink.config;

import static dev.quarantine.connect.sink.TestData.props;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@link ConfigRules#writeBound} and the one-attempt rule, row by row: a put's attempts end in time for what the
 * attempt started last may still wait (sends, commit, abort, the intent after it, each up to max.block.ms, and the
 * look before the abort with the repair after it, within the target admin's request.timeout.ms).
 */
class ConfigRulesTest {

    @Test
    void boundsThePutsAttemptsByTheMaxPollIntervalLessFourMaxBlocksAndTheLooksBudget() {
        assertThat(bound()).as("Kafka's defaults: 300 s - 4 x 60 s - 30 s").isEqualTo(Duration.ofSeconds(30));
        assertThat(bound("consumer.override.max.poll.interval.ms", "100000", "target.producer.max.block.ms", "10000"))
                .as("100 s - 4 x 10 s - 30 s").isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void countsTheLookBeforeAnAbortByTheTargetAdminsRequestTimeout() {
        assertThat(bound("consumer.override.max.poll.interval.ms", "100000", "target.producer.max.block.ms", "10000",
                "target.admin.request.timeout.ms", "5000")).as("100 s - 4 x 10 s - 5 s")
                .isEqualTo(Duration.ofSeconds(55));
    }

    @Test
    void leavesOneAttemptNeverANegativeBound() {
        assertThat(bound("consumer.override.max.poll.interval.ms", "100000", "target.producer.max.block.ms", "40000"))
                .isEqualTo(Duration.ZERO);
    }

    @Test
    void refusesAMaxBlockWithWhichOneAttemptCouldOutliveThePollIntervalNamingEachSetting() {
        Map<String, String> props = valid("target.producer.max.block.ms", "70000");

        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(props)))
                .containsOnlyKeys("target.producer.max.block.ms");
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(props)).get("target.producer.max.block.ms"))
                .singleElement().asString().contains("310000 ms")
                .contains("target.admin.request.timeout.ms=30000")
                .contains("consumer.override.max.poll.interval.ms=300000");
        props.put("target.admin.request.timeout.ms", "10000");
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(props))).isEmpty();
    }

    @Test
    void acceptsKafkasDefaults() {
        assertThat(TimeoutRules.timeoutProblems(new TransactionalSinkConfig(valid()))).isEmpty();
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
