package dev.quarantine.connect.sink.progress;

import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class OwnershipRecordTest {

    private static final String PREFIX = "orders-copy";
    private static final String TOPIC = "orders-copy.progress.internal";
    private static final TopicPartition SOURCE = new TopicPartition("orders", 3);
    private static final String TASK_1 = "orders-copy:task#1.0";

    @Test
    void namesTaskSlotsAndTheOffsetsIdUnderThePrefix() {
        assertThat(OwnershipRecord.taskId(PREFIX, 1, 0)).isEqualTo(TASK_1);
        assertThat(OwnershipRecord.offsetsId(PREFIX)).isEqualTo("orders-copy:offsets#0");
        assertThat(OwnershipRecord.isId(PREFIX, "orders-copy:task#12.3")).isTrue();
        assertThat(List.of("orders-copy:orders-3", "orders-copy:task#01.0", "orders-copy:task#1", "other:task#1.0",
                "orders-copy:offsets#1", "orders-copy:task#1.0/last"))
                .noneMatch(id -> OwnershipRecord.isId(PREFIX, id));
    }

    @Test
    void twoPrefixesAndTasksNeverGiveOneId() {
        String nested = OwnershipRecord.taskId("x:task#0.0", 0, 0);

        assertThat(nested).isEqualTo("x:task#0.0:task#0.0").isNotEqualTo(OwnershipRecord.taskId("x", 0, 0));
        assertThat(OwnershipRecord.isId("x", nested)).isFalse();
        assertThat(OwnershipRecord.isId("x:task#0.0", nested)).isTrue();
    }

    @Test
    void isKeyedByTheProgressKeyAndTheClaimingIdOnPartitionOneWithReadableLines() {
        ProducerRecord<byte[], byte[]> record = new OwnershipRecord(SOURCE, TASK_1).toRecord(TOPIC, PREFIX);

        assertThat(record.topic()).isEqualTo(TOPIC);
        assertThat(record.partition()).isEqualTo(1);
        assertThat(text(record.key())).isEqualTo("orders-copy:orders-3/orders-copy:task#1.0");
        assertThat(text(record.value())).isEqualTo("format=1\nholder=orders-copy:task#1.0\n");
    }

    @Test
    void readsBackWhatItWrote() {
        OwnershipRecord claim = new OwnershipRecord(SOURCE, OwnershipRecord.offsetsId(PREFIX));
        ProducerRecord<byte[], byte[]> written = claim.toRecord(TOPIC, PREFIX);

        assertThat(OwnershipRecord.read(PREFIX, consumed(written.key(), written.value(), 7))).contains(claim);
    }

    @Test
    void takesOnlyKeysItsPrefixBuildsExactly() {
        assertThat(OwnershipRecord.ofKey(PREFIX, "orders-copy:orders-3/orders-copy:task#1.0"))
                .contains(new OwnershipRecord(SOURCE, TASK_1));
        assertThat(List.of("other:orders-3/other:task#1.0", "orders-copy:orders-3/other:task#1.0",
                "orders-copy:orders-03/orders-copy:task#1.0", "orders-copy:orders-+3/orders-copy:task#1.0",
                "orders-copy:orders-3", "orders-copy:task#1.0/last", "orders-copy:orders-3/completed",
                "orders-copy:or ders-3/orders-copy:task#1.0", "orders-copy:orders-3/orders-copy:task#1.0/x",
                "orders-copy:-3/orders-copy:task#1.0"))
                .allSatisfy(key -> assertThat(OwnershipRecord.ofKey(PREFIX, key)).as(key).isEmpty());
    }

    @Test
    void skipsRecordsThatAreNotItsOwnUnread() {
        assertThat(OwnershipRecord.read(PREFIX, consumed(bytes("other:orders-3/other:task#1.0"),
                bytes("not a claim"), 3))).isEmpty();
        assertThat(OwnershipRecord.read(PREFIX, consumed(null, bytes("format=1\n"), 4))).isEmpty();
    }

    @Test
    void refusesARecordCopiedUnderAnotherKeyNamingItsPosition() {
        ConsumerRecord<byte[], byte[]> copied = consumed(bytes("orders-copy:orders-3/orders-copy:task#1.0"),
                bytes("format=1\nholder=orders-copy:task#0.0\n"), 42);

        assertThatThrownBy(() -> OwnershipRecord.read(PREFIX, copied)).isInstanceOf(ConnectException.class)
                .hasMessageStartingWith("The claim record " + TOPIC + "-1@42 cannot be read: holder is not the id its"
                        + " key names");
    }

    @Test
    void refusesATombstoneATooLargeValueAndAnotherFormatUnderItsKeys() {
        byte[] key = bytes("orders-copy:orders-3/orders-copy:task#1.0");

        assertThatThrownBy(() -> OwnershipRecord.read(PREFIX, consumed(key, null, 1)))
                .hasMessageContaining(TOPIC + "-1@1").hasMessageContaining("a tombstone under a claim key");
        assertThatThrownBy(() -> OwnershipRecord.read(PREFIX, consumed(key, new byte[2048], 2)))
                .hasMessageContaining(TOPIC + "-1@2").hasMessageContaining("a value of 2048 bytes");
        assertThatThrownBy(() -> OwnershipRecord.read(PREFIX, consumed(key, bytes("format=2\nholder=" + TASK_1), 3)))
                .hasMessageContaining(TOPIC + "-1@3").hasMessageContaining("another format than 1");
        assertThatThrownBy(() -> OwnershipRecord.read(PREFIX, consumed(key, bytes("format=1\n"), 4)))
                .hasMessageContaining(TOPIC + "-1@4").hasMessageContaining("holder is missing");
        assertThatThrownBy(() -> OwnershipRecord.read(PREFIX, consumed(key, bytes("format=1\nholder=\\u12"), 5)))
                .hasMessageContaining(TOPIC + "-1@5").hasMessageContaining("lines that do not parse");
    }

    @Test
    void readsLinesItDoesNotKnowWithinFormatOne() {
        ConsumerRecord<byte[], byte[]> newer = consumed(bytes("orders-copy:orders-3/orders-copy:task#1.0"),
                bytes("format=1\nholder=orders-copy:task#1.0\nreason=move\n"), 9);

        assertThat(OwnershipRecord.read(PREFIX, newer)).contains(new OwnershipRecord(SOURCE, TASK_1));
    }

    @Test
    void refusesToWriteAHolderThatIsNotAnIdOfThePrefix() {
        assertThatThrownBy(() -> new OwnershipRecord(SOURCE, "orders-copy:orders-4"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OwnershipRecord(SOURCE, "other:task#1.0").toRecord(TOPIC, PREFIX))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefix orders-copy");
    }

    private static ConsumerRecord<byte[], byte[]> consumed(byte[] key, byte[] value, long offset) {
        return new ConsumerRecord<>(TOPIC, OwnershipRecord.PARTITION, offset, key, value);
    }
}
