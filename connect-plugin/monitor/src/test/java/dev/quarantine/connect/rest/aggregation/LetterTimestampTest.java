package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LetterTimestampTest {

    @ParameterizedTest(name = "record time {0}, partition time {1}: {2}")
    @CsvSource({
            "1700000000000, -1,            1700000000000", // its own, before the partition has a time
            "1700000000000, 1800000000000, 1700000000000", // its own, even when older than the partition's
            "0,             1800000000000, 0",             // 0 is a time (1970), not a missing one
            "-1,            1800000000000, 1800000000000", // none: the partition's time so far
            "-1,            -1,            0",             // none, and the partition has none yet: 0, still counted
            "-5,            42,            42",            // any negative is no time
    })
    void theLettersOwnTimeElseItsPartitionsElseZeroNeverNegative(long recordTime, long partitionTime, long expected) {
        ConsumerRecord<Object, Object> record = new ConsumerRecord<>("dlq", 0, 7L, recordTime,
                TimestampType.CREATE_TIME, 0, 1, new byte[0], new byte[] {1}, new RecordHeaders(), Optional.empty());

        assertThat(new LetterTimestamp().extract(record, partitionTime)).isEqualTo(expected);
    }
}
