package dev.quarantine.replay;

import static dev.quarantine.replay.Letters.headers;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;

import dev.quarantine.txn.DeadLetterHeaders;

class HeaderRewriteTest {

    @Test
    void keepsTheOriginalHeadersInOrderAndDropsEveryErrorAndContextHeader() {
        Headers replayed = HeaderRewrite.replayed(headers("trace-id", "t1", DeadLetterHeaders.CONNECT_TOPIC, "in",
                DeadLetterHeaders.STREAMS_EXCEPTION, "x.Y", "tenant", "acme", DeadLetterHeaders.ERROR_CATEGORY,
                "RECORD", DeadLetterHeaders.SOURCE_RAW_VALUE, "raw", DeadLetterHeaders.PAYLOAD_TRUNCATED, "false"));

        assertThat(names(replayed)).containsExactly("trace-id", "tenant", DeadLetterHeaders.REPLAY_COUNT);
        assertThat(text(replayed.lastHeader("tenant").value())).isEqualTo("acme");
    }

    @Test
    void setsTheReplayCountToOneForAFirstReplay() {
        Headers replayed = HeaderRewrite.replayed(headers("trace-id", "t1"));

        assertThat(HeaderRewrite.replayCount(replayed)).isEqualTo(1);
    }

    @Test
    void aForgedReplayCountAtTheLargestNumberStaysThereInsteadOfTurningNegative() {
        Headers replayed = HeaderRewrite.replayed(headers(DeadLetterHeaders.REPLAY_COUNT,
                String.valueOf(Integer.MAX_VALUE)));

        assertThat(text(replayed.lastHeader(DeadLetterHeaders.REPLAY_COUNT).value()))
                .isEqualTo(String.valueOf(Integer.MAX_VALUE));
        assertThat(HeaderRewrite.replayCount(replayed)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void incrementsTheReplayCountTheFailedRecordCarried() {
        Headers replayed = HeaderRewrite.replayed(headers(DeadLetterHeaders.REPLAY_COUNT, "2",
                DeadLetterHeaders.STREAMS_TOPIC, "in"));

        assertThat(replayed.headers(DeadLetterHeaders.REPLAY_COUNT)).hasSize(1);
        assertThat(HeaderRewrite.replayCount(replayed)).isEqualTo(3);
    }

    @Test
    void readsAnUnreadableReplayCountAsZero() {
        assertThat(HeaderRewrite.replayCount(headers(DeadLetterHeaders.REPLAY_COUNT, "many"))).isZero();
        assertThat(HeaderRewrite.replayCount(headers(DeadLetterHeaders.REPLAY_COUNT, "-4"))).isZero();
    }

    private static List<String> names(Headers headers) {
        List<String> names = new ArrayList<>();
        for (Header header : headers) {
            names.add(header.key());
        }
        return names;
    }
}
