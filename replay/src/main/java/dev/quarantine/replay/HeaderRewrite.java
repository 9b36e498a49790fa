package dev.quarantine.replay;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * The headers of a replayed record: the dead letter's headers without the error and context families of every format
 * ({@link DeadLetterFormat#ERROR_HEADER_PREFIXES}: {@code __connect.errors.*}, {@code __streams.errors.*},
 * {@code __dlq.errors.*}, {@code kafka_dlt-*}, {@code __quarantine.*}), in their order, plus
 * {@value DeadLetterHeaders#REPLAY_COUNT}: one more than the count the record carried when it failed (0 when it had
 * none). The other headers are the failed record's own, which the dead letter kept.
 */
final class HeaderRewrite {

    private HeaderRewrite() {
    }

    /**
     * The headers of the record a replay writes: the dead letter's own without the error families', and the replay
     * count one higher (it stays at {@link Integer#MAX_VALUE}, a forged count's ceiling, instead of turning negative).
     */
    static Headers replayed(Headers deadLetter) {
        RecordHeaders headers = new RecordHeaders();
        for (Header header : deadLetter) {
            if (!isErrorHeader(header.key())) {
                headers.add(header);
            }
        }
        int count = replayCount(deadLetter);
        headers.add(DeadLetterHeaders.REPLAY_COUNT, String.valueOf(count == Integer.MAX_VALUE ? count : count + 1)
                .getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    /** {@value DeadLetterHeaders#REPLAY_COUNT} of these headers; 0 when absent or not a number. */
    static int replayCount(Headers headers) {
        Header header = headers.lastHeader(DeadLetterHeaders.REPLAY_COUNT);
        if (header == null || header.value() == null) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(new String(header.value(), StandardCharsets.UTF_8).trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static boolean isErrorHeader(String name) {
        return DeadLetterFormat.isErrorHeader(name);
    }
}
