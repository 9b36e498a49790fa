package dev.quarantine.connect.sink.write;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;

import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.TestData;

/** What waits for a partition's next transaction: offsets added once, from when, and its estimated size. */
class PendingRecordsTest {

    private final PendingRecords pending = new PendingRecords();

    @Test
    void addsOnlyOffsetsAboveTheLastWaitingOneAndKeepsWhenTheOldestArrived() {
        assertThat(pending.add(TestData.records("orders", 0, 0, 3), OptionalLong.empty(), 10)).isEqualTo(3);
        assertThat(pending.add(TestData.records("orders", 0, 1, 5), OptionalLong.empty(), 20)).isEqualTo(2);

        assertThat(pending.records()).extracting(SinkRecord::kafkaOffset).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(pending.sinceMs()).hasValue(10);
    }

    @Test
    void skipsOffsetsBelowTheCommittedProgress() {
        assertThat(pending.add(TestData.records("orders", 0, 0, 5), OptionalLong.of(3), 10)).isEqualTo(2);
    }

    @Test
    void startsAgainAfterTheCommit() {
        pending.add(TestData.records("orders", 0, 0, 3), OptionalLong.empty(), 10);
        pending.clear();

        assertThat(pending.count()).isZero();
        assertThat(pending.bytes()).isZero();
        assertThat(pending.sinceMs()).isEmpty();
        pending.add(TestData.records("orders", 0, 3, 4), OptionalLong.of(3), 30);
        assertThat(pending.sinceMs()).hasValue(30);
    }

    @Test
    void estimatesBytesOfKeysValuesAndHeadersAsArraysAndStrings() {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString("h", "abc");
        headers.addBytes("i", bytes("de"));
        SinkRecord record = new SinkRecord("orders", 0, Schema.STRING_SCHEMA, "key", Schema.BYTES_SCHEMA,
                bytes("value"), 0, 1L, TimestampType.CREATE_TIME, headers);

        assertThat(PendingRecords.estimatedBytes(record)).isEqualTo(3 + 5 + (1 + 3) + (1 + 2));
    }

    @Test
    void countsNothingForValuesOfOtherTypes() {
        Schema schema = SchemaBuilder.struct().field("f", Schema.STRING_SCHEMA).build();
        SinkRecord record = new SinkRecord("orders", 0, null, null, schema, new Struct(schema).put("f", "x"), 0);

        assertThat(PendingRecords.estimatedBytes(record)).isZero();
    }
}
