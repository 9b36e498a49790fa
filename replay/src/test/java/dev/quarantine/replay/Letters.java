package dev.quarantine.replay;

import static dev.quarantine.sandbox.Utf8.bytes;

import java.util.Arrays;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.record.TimestampType;

import dev.quarantine.sandbox.TextHeaders;
import dev.quarantine.txn.DeadLetterHeaders;

/** Dead-letter records for unit tests: {@code letter(partition, offset, "header", "value", ...)}. */
final class Letters {

    static final String DLQ = "orders.dlq";
    static final long TIMESTAMP = 1_700_000_000_000L;

    private Letters() {
    }

    static DeadLetterView letter(String... headerNamesAndValues) {
        return letter(0, 0, headerNamesAndValues);
    }

    /**
     * A dead letter as our writers write it: these headers, then {@code __quarantine.error.category} (which our writers
     * always write after their family's headers, and without which our other headers are not read as ours).
     */
    static DeadLetterView ourLetter(String... headerNamesAndValues) {
        return ourLetter(0, 0, headerNamesAndValues);
    }

    static DeadLetterView ourLetter(int partition, long offset, String... headerNamesAndValues) {
        String[] withCategory = Arrays.copyOf(headerNamesAndValues, headerNamesAndValues.length + 2);
        withCategory[headerNamesAndValues.length] = DeadLetterHeaders.ERROR_CATEGORY;
        withCategory[headerNamesAndValues.length + 1] = "RECORD";
        return letter(partition, offset, withCategory);
    }

    static DeadLetterView letter(int partition, long offset, String... headerNamesAndValues) {
        return DeadLetterView.of(record(partition, offset, TIMESTAMP, headers(headerNamesAndValues)));
    }

    static ConsumerRecord<byte[], byte[]> record(int partition, long offset, long timestamp, Headers headers) {
        return new ConsumerRecord<>(DLQ, partition, offset, timestamp, TimestampType.CREATE_TIME, 3, 5, bytes("key"),
                bytes("value"), headers, Optional.empty());
    }

    static Headers headers(String... namesAndValues) {
        return TextHeaders.of(namesAndValues);
    }
}
