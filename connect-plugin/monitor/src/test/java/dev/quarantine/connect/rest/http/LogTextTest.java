package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

    @Test
    void keepsPrintableTextAsItIs() {
        assertThat(LogText.escape("orders-dlq 'x' \"y\" é €")).isEqualTo("orders-dlq 'x' \"y\" é €");
    }

    @Test
    void escapesLineBreaksSoNoLogLineCanBeForged() {
        String forged = "x\r\n2026-12-02 05:00:00 INFO Dead-letter monitor: all good";

        assertThat(LogText.escape(forged)).isEqualTo("x\\r\\n2026-12-02 05:00:00 INFO Dead-letter monitor: all good")
                .doesNotContain("\r", "\n");
    }

    @Test
    void escapesOtherControlCharactersSeparatorsAndBidirectionalOverrides() {
        assertThat(LogText.escape("a\tb\u0000c\u001b[31md\u007fe\u0085f\u2028g\u2029h\u202Ei\u2066j"))
                .isEqualTo("a\\tb\\u0000c\\u001B[31md\\u007Fe\\u0085f\\u2028g\\u2029h\\u202Ei\\u2066j");
    }

    @Test
    void doublesBackslashesSoEscapedTextIsUnambiguous() {
        assertThat(LogText.escape("a\\nb")).isEqualTo("a\\\\nb");
        assertThat(LogText.escape("a\nb")).isNotEqualTo(LogText.escape("a\\nb"));
    }

    @Test
    void cutsLongTextAndMarksIt() {
        assertThat(LogText.escape("y".repeat(5_000))).isEqualTo("y".repeat(LogText.MAX_CHARS) + "...");
        assertThat(LogText.escape("y".repeat(LogText.MAX_CHARS))).isEqualTo("y".repeat(LogText.MAX_CHARS));
    }

    @Test
    void writesNullAndObjectsThroughToString() {
        assertThat(LogText.escape(null)).isEqualTo("null");
        assertThat(LogText.escape(new IllegalStateException("bad\ntopic"))).isEqualTo(
                "java.lang.IllegalStateException: bad\\ntopic");
    }
}
