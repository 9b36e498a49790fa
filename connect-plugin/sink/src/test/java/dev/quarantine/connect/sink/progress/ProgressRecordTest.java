package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

class ProgressRecordTest {

    private static final Uuid TOPIC_ID = Uuid.fromString("Q2xvdWRlUHJvZ3Jlc3MxMg");
    private static final TopicPartition PROGRESS = new TopicPartition("sink.progress.internal", 0);
    private static final TopicPartition SOURCE = new TopicPartition("orders", 3);
    private static final Uuid SOURCE_ID = Uuid.fromString("b2xkT3JkZXJzVG9waWMxMg");

    @Test
    void isKeyedByTheTransactionalIdForPartitionZeroWithReadableLines() {
        ProducerRecord<byte[], byte[]> record = new ProgressRecord(1043, TOPIC_ID)
                .toRecord(PROGRESS, "sink.orders-3", SOURCE);

        assertThat(record.topic()).isEqualTo("sink.progress.internal");
        assertThat(record.partition()).isZero();
        assertThat(text(record.key())).isEqualTo("sink.orders-3");
        assertThat(text(record.value())).isEqualTo("format=1\nfrom=1043\nnext=1043\nsource=orders-3\ntopic.id="
                + "Q2xvdWRlUHJvZ3Jlc3MxMg\n");
    }

    @Test
    void readsBackWhatItWrote() {
        ProgressRecord progress = new ProgressRecord(1043, TOPIC_ID);

        assertThat(ProgressRecord.parse(progress.toRecord(PROGRESS, "sink.orders-3", SOURCE).value()))
                .isEqualTo(progress);
    }

    @Test
    void carriesTheSourceTopicIdAndTheTargetPartitionCountsItWasMappedBy() {
        ProgressRecord progress = new ProgressRecord(1043, TOPIC_ID, Optional.of(SOURCE_ID),
                Map.of("copy.orders", 2, "audit.orders", 6));

        ProducerRecord<byte[], byte[]> record = progress.toRecord(PROGRESS, "sink:orders-3", SOURCE);

        assertThat(text(record.value())).isEqualTo("format=1\nfrom=1043\nnext=1043\nsource=orders-3\nsource.topic.id="
                + SOURCE_ID + "\ntarget.partitions.audit.orders=6\ntarget.partitions.copy.orders=2\ntopic.id="
                + TOPIC_ID + "\n");
        assertThat(ProgressRecord.parse(record.value())).isEqualTo(progress);
    }

    @Test
    void rejectsATargetPartitionCountBelowOne() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes("format=1\nfrom=7\nnext=7\ntopic.id="
                + "Q2xvdWRlUHJvZ3Jlc3MxMg\ntarget.partitions.copy=0\n"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("format 1 but target.partitions.copy is 0, not a partition count");
    }

    @Test
    void readsLinesItDoesNotKnowWithinFormatOne() {
        assertThat(ProgressRecord.parse(bytes("format=1\nfrom=7\nnext=7\ntopic.id=Q2xvdWRlUHJvZ3Jlc3MxMg\n"
                + "writer=x\n")))
                .isEqualTo(new ProgressRecord(7, TOPIC_ID));
    }

    @Test
    void rejectsAFormatItDoesNotRead() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes("format=2\nnext=7\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("format 2, while this version reads format 1 (written by a newer version?)");
    }

    @Test
    void rejectsARecordWithoutTheNextOffset() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes("format=1\nfrom=7\ntopic.id=Q2xvdWRlUHJvZ3Jlc3MxMg\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("format 1 but next is missing");
    }

    @Test
    void rejectsARecordWithoutTheFirstOffsetItCovered() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes("format=1\nnext=7\ntopic.id=Q2xvdWRlUHJvZ3Jlc3MxMg\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("format 1 but from is missing");
    }

    @Test
    void carriesTheRangeItCoveredAndARedoStillToFinish() {
        ProgressRecord progress = new ProgressRecord(10, 10, TOPIC_ID, Optional.empty(), Map.of(),
                Optional.of(new RedoRange(15, Set.of(new TopicPartition("copy.orders", 3),
                        new TopicPartition("dlq", 0)))));

        ProducerRecord<byte[], byte[]> record = progress.toRecord(PROGRESS, "sink:orders-3", SOURCE);

        assertThat(text(record.value())).isEqualTo("format=1\nfrom=10\nnext=10\nredo.end=15\nredo.partitions="
                + "copy.orders-3,dlq-0\nsource=orders-3\ntopic.id=" + TOPIC_ID + "\n");
        assertThat(ProgressRecord.parse(record.value())).isEqualTo(progress);
    }

    @Test
    void rejectsARedoWithOnlyOneOfItsLines() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes("format=1\nfrom=7\nnext=7\nredo.end=9\ntopic.id="
                + "Q2xvdWRlUHJvZ3Jlc3MxMg\n"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("format 1 but redo.end and redo.partitions come together, one is missing");
    }

    @Test
    void rejectsAFirstOffsetPastTheNext() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes("format=1\nfrom=8\nnext=7\ntopic.id="
                + "Q2xvdWRlUHJvZ3Jlc3MxMg\n"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("format 1 but from 8 is past next 7");
    }

    @Test
    void rejectsANextOffsetThatIsNotANumber() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes("format=1\nnext=x\ntopic.id=Q2xvdWRlUHJvZ3Jlc3MxMg\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("format 1 but");
    }

    @Test
    void rejectsATombstone() {
        assertThatThrownBy(() -> ProgressRecord.parse(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("a record without a value");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
