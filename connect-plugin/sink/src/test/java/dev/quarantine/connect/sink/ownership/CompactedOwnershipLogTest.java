package dev.quarantine.connect.sink.ownership;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.Holder;
import dev.quarantine.connect.sink.ownership.OwnershipLog.ProgressMark;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.RecordPositions;

/**
 * The two {@code KeyedFormat}s through which {@link CompactedOwnershipLog} reads the progress topic with the one
 * reader of compacted topics: each record as the one reader of its format reads it, with its offset.
 */
class CompactedOwnershipLogTest {

    private static final String PREFIX = "copy";
    private static final String TOPIC = "copy-progress";
    private static final TopicPartition P = new TopicPartition("orders", 3);
    private static final String T1 = OwnershipRecord.taskId(PREFIX, 1, 0);

    @Test
    void aClaimIsReadWithItsOffset() {
        ProducerRecord<byte[], byte[]> claim = new OwnershipRecord(P, T1).toRecord(TOPIC, PREFIX);

        Optional<At<OwnershipRecord>> read = CompactedOwnershipLog.claimFormat(PREFIX, TOPIC)
                .read(new String(claim.key(), UTF_8), claim.value(), RecordPositions.of(TOPIC, 1, 42));

        assertThat(read).contains(new At<>(42, new OwnershipRecord(P, T1)));
    }

    @Test
    void anotherConnectorsClaimIsNotKeptAndAClaimCopiedUnderAnotherKeyIsRefused() {
        ProducerRecord<byte[], byte[]> other = new OwnershipRecord(P, OwnershipRecord.taskId("other", 0, 0))
                .toRecord(TOPIC, "other");
        ProducerRecord<byte[], byte[]> copied = new OwnershipRecord(P, OwnershipRecord.taskId(PREFIX, 2, 0))
                .toRecord(TOPIC, PREFIX);

        assertThat(CompactedOwnershipLog.claimFormat(PREFIX, TOPIC).read(new String(other.key(), UTF_8),
                other.value(), RecordPositions.of(TOPIC, 1, 1))).isEmpty();
        assertThatThrownBy(() -> CompactedOwnershipLog.claimFormat(PREFIX, TOPIC).read(
                WriterFactory.transactionalId(PREFIX, P) + "/" + T1, copied.value(), RecordPositions.of(TOPIC, 1, 2)))
                .isInstanceOf(ConnectException.class).hasMessageContaining(TOPIC + "-1@2");
    }

    @Test
    void aTombstoneUnderAClaimKeyIsRefusedNamingItsPositionAndAnotherConnectorsIsNotKept() {
        ProducerRecord<byte[], byte[]> claim = new OwnershipRecord(P, T1).toRecord(TOPIC, PREFIX);
        ProducerRecord<byte[], byte[]> other = new OwnershipRecord(P, OwnershipRecord.taskId("other", 0, 0))
                .toRecord(TOPIC, "other");

        assertThatThrownBy(() -> CompactedOwnershipLog.claimFormat(PREFIX, TOPIC).tombstone(
                new String(claim.key(), UTF_8), RecordPositions.of(TOPIC, 1, 12)))
                .isInstanceOf(ConnectException.class).hasMessageContaining(TOPIC + "-1@12")
                .hasMessageContaining("tombstone");
        assertThat(CompactedOwnershipLog.claimFormat(PREFIX, TOPIC).tombstone(new String(other.key(), UTF_8),
                RecordPositions.of(TOPIC, 1, 13))).isEmpty();
    }

    @Test
    void aProgressTombstoneIsAResetAtItsOffset() {
        String key = WriterFactory.transactionalId(PREFIX, P);

        assertThat(CompactedOwnershipLog.progressFormat(PREFIX).tombstone(key, RecordPositions.of(TOPIC, 0, 21)))
                .contains(new At<>(21, new ProgressMark(P, Optional.empty())));
        assertThat(CompactedOwnershipLog.progressFormat(PREFIX).tombstone(T1 + "/completed",
                RecordPositions.of(TOPIC, 0, 22))).isEmpty();
    }

    @Test
    void aProgressRecordIsReadAsItsHolderAndClaim() {
        String key = WriterFactory.transactionalId(PREFIX, P);
        ProducerRecord<byte[], byte[]> progress = new ProgressRecord(0, 10, Uuid.randomUuid(), Optional.empty(),
                Map.of(), Optional.empty()).withOwnership(new ProgressRecord.Holder(T1, 7), Map.of())
                .toRecord(new TopicPartition(TOPIC, 0), key, P);

        assertThat(CompactedOwnershipLog.progressFormat(PREFIX).read(key, progress.value(),
                RecordPositions.of(TOPIC, 0, 9)))
                .contains(new At<>(9, new ProgressMark(P, Optional.of(new Holder(T1, 7)))));
    }

    @Test
    void aProgressRecordWithoutOwnershipLinesHasNoHolderAndOtherKeysAreNotKept() {
        String key = WriterFactory.transactionalId(PREFIX, P);
        ProducerRecord<byte[], byte[]> today = new ProgressRecord(10, Uuid.randomUuid())
                .toRecord(new TopicPartition(TOPIC, 0), key, P);

        assertThat(CompactedOwnershipLog.progressFormat(PREFIX).read(key, today.value(),
                RecordPositions.of(TOPIC, 0, 3))).contains(new At<>(3, new ProgressMark(P, Optional.empty())));
        assertThat(CompactedOwnershipLog.progressFormat(PREFIX).read(T1 + "/completed", today.value(),
                RecordPositions.of(TOPIC, 0, 4))).isEmpty();
        assertThat(CompactedOwnershipLog.progressFormat(PREFIX).read("other:orders-3", today.value(),
                RecordPositions.of(TOPIC, 0, 5))).isEmpty();
    }
}
