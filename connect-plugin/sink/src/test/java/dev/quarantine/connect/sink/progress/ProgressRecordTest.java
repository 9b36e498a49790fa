package dev.quarantine.connect.sink.progress;

import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
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

    private static final String HOLDER = "sink:task#1.0";
    private static final TopicPartition TARGET = new TopicPartition("copy.orders", 3);
    private static final TopicPartition DLQ = new TopicPartition("dlq", 0);

    @Test
    void writesTheOwnershipLinesAndReadsThemBack() {
        ProgressRecord progress = new ProgressRecord(1000, 1043, TOPIC_ID, Optional.empty(), Map.of(),
                Optional.empty()).withOwnership(new ProgressRecord.Holder(HOLDER, 17),
                Map.of(TARGET, new ProgressRecord.Written(500, 543, 1000), DLQ, new ProgressRecord.Written(7, 8, 990)));

        ProducerRecord<byte[], byte[]> record = progress.toRecord(PROGRESS, "sink:orders-3", SOURCE);

        assertThat(text(record.value())).isEqualTo("format=1\nfrom=1000\nnext=1043\nclaim=17\nholder=sink:task#1.0\n"
                + "source=orders-3\ntopic.id=" + TOPIC_ID + "\nwritten.copy.orders-3=500,543,1000\n"
                + "written.dlq-0=7,8,990\n");
        assertThat(ProgressRecord.parse(record.value())).isEqualTo(progress);
    }

    @Test
    void readsARecordWithoutOwnershipLinesAsWrittenByNoHolderAndNamingNothingWritten() {
        ProgressRecord older = ProgressRecord.parse(bytes("format=1\nfrom=7\nnext=9\ntopic.id=" + TOPIC_ID + "\n"));

        assertThat(older.holder()).isEmpty();
        assertThat(older.written()).isEmpty();
        assertThat(older.next()).isEqualTo(9);
    }

    @Test
    void refusesAHolderWithoutItsClaimAndTheOtherWayRound() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes(base() + "holder=" + HOLDER + "\n")))
                .hasMessage("format 1 but holder and claim come together, one is missing");
        assertThatThrownBy(() -> ProgressRecord.parse(bytes(base() + "claim=3\n")))
                .hasMessage("format 1 but holder and claim come together, one is missing");
    }

    @Test
    void refusesAHolderThatIsNotAnIdAndAClaimThatIsNotAnOffset() {
        assertThatThrownBy(() -> ProgressRecord.parse(bytes(base() + "claim=3\nholder=sink:orders-3\n")))
                .hasMessageStartingWith("format 1 but a holder is <prefix>:task#<n>.<j> or <prefix>:offsets#0");
        List.of("-3", "+3", "03", "x", "", "99999999999999999999").forEach(claim ->
                assertThatThrownBy(() -> ProgressRecord.parse(bytes(base() + "claim=" + claim + "\nholder=" + HOLDER
                        + "\n"))).as(claim).hasMessage("format 1 but claim is not an offset"));
    }

    @Test
    void refusesWrittenLinesThatAreNotThreeOffsetsOfARange() {
        List.of("1,2", "1", "1,,3", "1, 2,3", "-1,2,3", "01,2,3").forEach(line ->
                assertThatThrownBy(() -> ProgressRecord.parse(bytes(base() + "written.copy-0=" + line + "\n")))
                        .as(line).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("format 1 but the written.copy-0 line"));
        assertThatThrownBy(() -> ProgressRecord.parse(bytes(base() + "written.copy-0=5,5,0\n")))
                .hasMessage("format 1 but the written.copy-0 line: first 5, end 5 and from 0 are not a range of"
                        + " offsets");
    }

    @Test
    void aLaterVersionsWrittenKeysAndAppendedFieldsDoNotStopThisReader() {
        // older reader, newer record: format 1 ignores what it does not know (ProgressRecord's mixed-versions table)
        ProgressRecord read = ProgressRecord.parse(bytes(base() + "written.copy-0=5,9,7,crc32=1f\n"
                + "written.copy-1.checksum=abc\nwritten.copy.orders-3.first=1\nwritten.v2=x\nwritten.copy-01=1,2,3\n"
                + "written.co\\u0000py-0=1,2,3\nwritten.dlq-2=1,2,3,\n"));

        assertThat(read.written()).containsExactly(
                Map.entry(new TopicPartition("copy", 0), new ProgressRecord.Written(5, 9, 7)),
                Map.entry(new TopicPartition("dlq", 2), new ProgressRecord.Written(1, 2, 3)));
    }

    @Test
    void whatThisVersionWritesReadsBackUnderTheSameRule() {
        // newer record of this version, read by this version and, field for field, by a later one that appends
        Map<TopicPartition, ProgressRecord.Written> written = Map.of(new TopicPartition("copy.orders", 3),
                new ProgressRecord.Written(500, 543, 1000));
        byte[] value = new ProgressRecord(1000, 1043, TOPIC_ID, Optional.empty(), Map.of(), Optional.empty())
                .withOwnership(new ProgressRecord.Holder("copy:task#0.0", 4), written)
                .toRecord(new TopicPartition("copy-progress", 0), "copy:orders-3", new TopicPartition("orders", 3))
                .value();

        assertThat(ProgressRecord.parse(value).written()).isEqualTo(written);
        assertThat(ProgressRecord.parse(bytes(new String(value, StandardCharsets.UTF_8)
                .replace("=500,543,1000", "=500,543,1000,later")))).isEqualTo(ProgressRecord.parse(value));
    }

    @Test
    void writesTheTopicIdOfALineAsItsIdFieldAndReadsItBackAmongALaterVersionsFields() {
        Uuid target = Uuid.randomUuid();
        ProgressRecord progress = new ProgressRecord(1000, 1043, TOPIC_ID, Optional.empty(), Map.of(),
                Optional.empty()).withOwnership(new ProgressRecord.Holder(HOLDER, 17),
                Map.of(TARGET, new ProgressRecord.Written(500, 543, 1000, Optional.of(target)),
                        DLQ, new ProgressRecord.Written(7, 8, 990)));

        String value = text(progress.toRecord(PROGRESS, "sink:orders-3", SOURCE).value());

        assertThat(value).contains("\nwritten.copy.orders-3=500,543,1000,id=" + target + "\nwritten.dlq-0=7,8,990\n");
        assertThat(ProgressRecord.parse(bytes(value))).isEqualTo(progress);
        assertThat(ProgressRecord.parse(bytes(value.replace(",id=", ",later=x,id="))).written().get(TARGET).topicId())
                .as("wherever it stands after the three offsets").contains(target);
        assertThatThrownBy(() -> ProgressRecord.parse(bytes(base() + "written.copy-0=1,2,3,id=not-an-id\n")))
                .hasMessage("format 1 but the written.copy-0 line: id= is not a topic id");
    }

    @Test
    void aLineOfATopicIsOfAnotherTopicOnlyWhenItNamesAnotherId() {
        Uuid id = Uuid.randomUuid();

        assertThat(new ProgressRecord.Written(1, 2, 3, Optional.of(id)).ofAnotherTopicThan(id)).isFalse();
        assertThat(new ProgressRecord.Written(1, 2, 3, Optional.of(id)).ofAnotherTopicThan(Uuid.randomUuid()))
                .isTrue();
        assertThat(new ProgressRecord.Written(1, 2, 3, Optional.of(id)).ofAnotherTopicThan(null))
                .as("its topic gone").isTrue();
        assertThat(new ProgressRecord.Written(1, 2, 3).ofAnotherTopicThan(id)).as("an older line: no id").isFalse();
    }

    @Test
    void refusesMoreWrittenLinesThanARecordCanNeed() {
        StringBuilder text = new StringBuilder(base());
        for (int partition = 0; partition <= ProgressRecordLines.MAX_WRITTEN; partition++) {
            text.append("written.dlq-").append(partition).append("=1,2,3\n");
        }

        assertThatThrownBy(() -> ProgressRecord.parse(bytes(text.toString())))
                .hasMessage("format 1 but more than 10000 written.* lines");
    }

    private static String base() {
        return "format=1\nfrom=7\nnext=7\ntopic.id=" + TOPIC_ID + "\n";
    }
}
