package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.quarantine.streams.HandlerDecisions.Decision;
import dev.quarantine.txn.SendErrorCategory;

/** Every row of the handler's decision table, with two retries allowed. */
class HandlerDecisionsTest {

    private final HandlerDecisions decisions = new HandlerDecisions(2);

    @ParameterizedTest(name = "{0} to {1} at attempt {2}: {3}")
    @CsvSource({
        // a retriable error is retried while retries are left, whatever the topic
        "RETRIABLE, OUTPUT,      0, RETRY",
        "RETRIABLE, OUTPUT,      1, RETRY",
        "RETRIABLE, CHANGELOG,   1, RETRY",
        "RETRIABLE, REPARTITION, 0, RETRY",
        "RETRIABLE, DEAD_LETTER, 1, RETRY",
        // a poison output is dead-lettered, at once or once its retries are spent
        "RECORD,    OUTPUT,      0, DEAD_LETTER",
        "RETRIABLE, OUTPUT,      2, DEAD_LETTER",
        // an internal topic's record is never dead-lettered
        "RECORD,    CHANGELOG,   0, FAIL_INTERNAL_TOPIC",
        "RECORD,    REPARTITION, 0, FAIL_INTERNAL_TOPIC",
        "RETRIABLE, CHANGELOG,   2, FAIL_INTERNAL_TOPIC",
        "RETRIABLE, REPARTITION, 2, FAIL_INTERNAL_TOPIC",
        // nor is a dead letter
        "RECORD,    DEAD_LETTER, 0, FAIL_DEAD_LETTER_TOPIC",
        "RETRIABLE, DEAD_LETTER, 2, FAIL_DEAD_LETTER_TOPIC",
        // abortable and fatal errors fail, whatever the topic
        "ABORTABLE, OUTPUT,      0, FAIL_ERROR",
        "ABORTABLE, CHANGELOG,   0, FAIL_ERROR",
        "FATAL,     OUTPUT,      0, FAIL_ERROR",
        "FATAL,     REPARTITION, 0, FAIL_ERROR",
        "FATAL,     DEAD_LETTER, 0, FAIL_ERROR",
    })
    void answersAsTheTableSays(SendErrorCategory category, TopicKind topic, int attempt, Decision expected) {
        assertThat(decisions.decide(category, topic, attempt)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} with no retries allowed: {1}")
    @CsvSource({
        "OUTPUT,      DEAD_LETTER",
        "CHANGELOG,   FAIL_INTERNAL_TOPIC",
        "DEAD_LETTER, FAIL_DEAD_LETTER_TOPIC",
    })
    void neverRetriesWhenNoRetriesAreAllowed(TopicKind topic, Decision expected) {
        assertThat(new HandlerDecisions(0).decide(SendErrorCategory.RETRIABLE, topic, 0)).isEqualTo(expected);
    }
}
