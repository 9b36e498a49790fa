package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.errors.InvalidTopicException;
import org.junit.jupiter.api.Test;

/** Kafka's topic-name rule, row by row; the producer's checks, the sink's settings and the monitor all use it. */
class TopicNamesTest {

    @Test
    void acceptsLettersDigitsDotsUnderscoresAndDashes() {
        assertThat(TopicNames.isLegal("Orders_v2.eu-west-1")).isTrue();
    }

    @Test
    void acceptsANameOfExactly249Characters() {
        assertThat(TopicNames.isLegal("a".repeat(249))).isTrue();
    }

    @Test
    void rejectsANameLongerThan249Characters() {
        assertThat(TopicNames.isLegal("a".repeat(250))).isFalse();
    }

    @Test
    void rejectsTheEmptyName() {
        assertThat(TopicNames.isLegal("")).isFalse();
    }

    @Test
    void rejectsDotAndDotDotButNotNamesWithDots() {
        assertThat(TopicNames.isLegal(".")).isFalse();
        assertThat(TopicNames.isLegal("..")).isFalse();
        assertThat(TopicNames.isLegal("...")).isTrue();
    }

    @Test
    void rejectsOtherCharactersIncludingNonAsciiLetters() {
        assertThat(TopicNames.isLegal("bad name")).isFalse();
        assertThat(TopicNames.isLegal("orders/eu")).isFalse();
        assertThat(TopicNames.isLegal("bestellungen-ä")).isFalse();
    }

    @Test
    void validateThrowsInvalidTopicExceptionSayingWhy() {
        assertThatThrownBy(() -> TopicNames.validate("..")).isInstanceOf(InvalidTopicException.class)
                .hasMessageContaining("'.' and '..' are not allowed");
    }
}
