package dev.quarantine.replay.letters;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.TextHeaders;
import dev.quarantine.txn.DeadLetterHeaders;

class DeadLetterReaderTest {

    private static final long TIME = 1_700_000_000_000L;

    @Test
    void readsKafkaConnectsHeaders() {
        DeadLetterContext read = DeadLetterReader.read(TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION,
                "org.apache.kafka.connect.errors.DataException", DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, "bad",
                DeadLetterHeaders.CONNECT_TOPIC, "orders", DeadLetterHeaders.CONNECT_PARTITION, "2",
                DeadLetterHeaders.CONNECT_OFFSET, "41", DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "copy",
                DeadLetterHeaders.CONNECT_TASK_ID, "0", DeadLetterHeaders.CONNECT_STAGE, "VALUE_CONVERTER"));

        assertThat(read.format()).isEqualTo(DeadLetterFormat.CONNECT);
        assertThat(read.errorClass()).contains("org.apache.kafka.connect.errors.DataException");
        assertThat(read.errorMessage()).contains("bad");
        assertOrigin(read, "orders", 2, 41L);
        assertThat(read.connector().value()).contains("copy");
        assertThat(read.groupOrApplication()).contains("copy");
        assertThat(read.task()).contains("0");
        assertThat(read.stage()).contains("VALUE_CONVERTER");
        assertThat(read.originalTimestamp()).isEmpty();
    }

    @Test
    void readsKafkaStreamsHeadersWithAClassNameOrAnExceptionsToString() {
        for (String exception : new String[] {"org.apache.kafka.common.errors.SerializationException",
                "org.apache.kafka.common.errors.SerializationException: Size of data received is not 4"}) {
            DeadLetterContext read = DeadLetterReader.read(TextHeaders.of(DeadLetterHeaders.STREAMS_EXCEPTION,
                    exception, DeadLetterHeaders.STREAMS_TOPIC, "clicks", DeadLetterHeaders.STREAMS_PARTITION, "0",
                    DeadLetterHeaders.STREAMS_OFFSET, "7", DeadLetterHeaders.APPLICATION_ID, "billing",
                    DeadLetterHeaders.ERROR_CATEGORY, "RECORD"));

            assertThat(read.format()).isEqualTo(DeadLetterFormat.STREAMS);
            assertThat(read.errorClass()).as(exception)
                    .contains("org.apache.kafka.common.errors.SerializationException");
            assertOrigin(read, "clicks", 0, 7L);
            assertThat(read.groupOrApplication()).contains("billing");
        }
    }

    @Test
    void takesAnErrorClassOnlyWhenItIsAJavaClassNameElseItIsUnknown() {
        for (String hostile : new String[] {"not a class: x", "<script>alert(1)</script>", "a b.C", "a..B", "",
                "org.example.E" + "x".repeat(10_000), "1a.B", "a.B.:x"}) {
            assertThat(DeadLetterReader.read(TextHeaders.of(DeadLetterHeaders.STREAMS_EXCEPTION, hostile))
                    .errorClass()).as(hostile.length() > 40 ? hostile.substring(0, 40) : hostile).isEmpty();
        }
        String longest = "a." + "B".repeat(HeaderText.MAX_NAME_CHARS - 2);
        assertThat(DeadLetterReader.read(TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, longest)).errorClass())
                .contains(longest);
        assertThat(DeadLetterReader.read(TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, longest + "C"))
                .errorClass()).isEmpty();
        assertThat(DeadLetterReader.read(TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, "a.Outer$Inner"))
                .errorClass()).contains("a.Outer$Inner");
    }

    @Test
    void boundsSpringsOriginalTimestamp() {
        for (long[] row : new long[][] {{0L, 0L}, {DeadLetterReader.MAX_ORIGINAL_TIMESTAMP,
                DeadLetterReader.MAX_ORIGINAL_TIMESTAMP}, {DeadLetterReader.MAX_ORIGINAL_TIMESTAMP + 1, -1L},
                {Long.MAX_VALUE, -1L}, {-5L, -1L}}) {
            RecordHeaders headers = TextHeaders.of(ForeignHeaders.SPRING_ORIGINAL_TOPIC, "orders");
            headers.add(ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP, ByteBuffer.allocate(8).putLong(row[0]).array());

            DeadLetterContext read = DeadLetterReader.read(headers);

            if (row[1] < 0) {
                assertThat(read.originalTimestamp()).as(String.valueOf(row[0])).isEmpty();
            } else {
                assertThat(read.originalTimestamp()).as(String.valueOf(row[0])).hasValue(row[1]);
            }
        }
    }

    @Test
    void readsShareGroupHeadersWrittenByTheBroker() {
        DeadLetterContext read = DeadLetterReader.read(TextHeaders.of(ForeignHeaders.SHARE_TOPIC, "payments",
                ForeignHeaders.SHARE_PARTITION, "1", ForeignHeaders.SHARE_OFFSET, "12", ForeignHeaders.SHARE_GROUP,
                "payers", ForeignHeaders.SHARE_DELIVERY_COUNT, "3", ForeignHeaders.SHARE_MESSAGE, "rejected"));

        assertThat(read.format()).isEqualTo(DeadLetterFormat.SHARE_GROUP);
        assertOrigin(read, "payments", 1, 12L);
        assertThat(read.group().value()).contains("payers");
        assertThat(read.groupOrApplication()).contains("payers");
        assertThat(read.deliveryCount()).hasValue(3);
        assertThat(read.errorMessage()).contains("rejected");
        assertThat(read.errorClass()).isEmpty();
    }

    @Test
    void readsSpringKafkasBinaryNumbersAndTheRootCause() {
        RecordHeaders headers = TextHeaders.of(ForeignHeaders.SPRING_ORIGINAL_TOPIC, "orders",
                ForeignHeaders.SPRING_EXCEPTION, "org.springframework.kafka.listener.ListenerExecutionFailedException",
                ForeignHeaders.SPRING_EXCEPTION_CAUSE, "java.lang.IllegalStateException",
                ForeignHeaders.SPRING_EXCEPTION_MESSAGE, "Listener failed; bad order",
                ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP_TYPE, "CreateTime",
                ForeignHeaders.SPRING_ORIGINAL_CONSUMER_GROUP, "order-service");
        headers.add(ForeignHeaders.SPRING_ORIGINAL_PARTITION, ByteBuffer.allocate(4).putInt(3).array());
        headers.add(ForeignHeaders.SPRING_ORIGINAL_OFFSET, ByteBuffer.allocate(8).putLong(99L).array());
        headers.add(ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP, ByteBuffer.allocate(8).putLong(TIME).array());

        DeadLetterContext read = DeadLetterReader.read(headers);

        assertThat(read.format()).isEqualTo(DeadLetterFormat.SPRING);
        assertThat(read.errorClass()).contains("java.lang.IllegalStateException");
        assertThat(read.errorMessage()).contains("Listener failed; bad order");
        assertOrigin(read, "orders", 3, 99L);
        assertThat(read.originalTimestamp()).hasValue(TIME);
        assertThat(read.originalTimestampType()).contains(TimestampType.CREATE_TIME);
        assertThat(read.groupOrApplication()).contains("order-service");
    }

    @Test
    void takesSpringsExceptionOrKeyExceptionWhenThereIsNoCause() {
        assertThat(DeadLetterReader.read(TextHeaders.of(ForeignHeaders.SPRING_EXCEPTION, "a.B")).errorClass())
                .contains("a.B");
        assertThat(DeadLetterReader.read(TextHeaders.of(ForeignHeaders.SPRING_KEY_EXCEPTION, "a.K")).errorClass())
                .contains("a.K");
    }

    @Test
    void readsSpringNumbersOfTheWrongSizeOrSignAsIllegal() {
        RecordHeaders headers = TextHeaders.of(ForeignHeaders.SPRING_ORIGINAL_TOPIC, "orders",
                ForeignHeaders.SPRING_ORIGINAL_PARTITION, "3", ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP_TYPE,
                "Tuesday");
        headers.add(ForeignHeaders.SPRING_ORIGINAL_OFFSET, ByteBuffer.allocate(8).putLong(-1L).array());
        headers.add(ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP, new byte[] {1, 2, 3});

        DeadLetterContext read = DeadLetterReader.read(headers);

        assertThat(read.originalPartition().illegal()).isTrue();
        assertThat(read.originalOffset().illegal()).isTrue();
        assertThat(read.originalTimestamp()).isEmpty();
        assertThat(read.originalTimestampType()).isEmpty();
        assertThat(read.originalTopic().value()).contains("orders");
    }

    @Test
    void readsOursWithoutAFamilyAsQuarantineAndNothingAsUnknown() {
        DeadLetterContext ours = DeadLetterReader.read(TextHeaders.of(DeadLetterHeaders.ERROR_CATEGORY, "RECORD",
                DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.TARGET_PARTITION, "4"));
        DeadLetterContext unknown = DeadLetterReader.read(TextHeaders.of("trace-id", "t1"));

        assertThat(ours.format()).isEqualTo(DeadLetterFormat.QUARANTINE);
        assertThat(ours.targetTopic().value()).contains("out");
        assertThat(ours.targetPartition().value()).contains(4);
        assertThat(ours.originalTopic().value()).isEmpty();
        assertThat(unknown.format()).isEqualTo(DeadLetterFormat.UNKNOWN);
        assertThat(unknown.errorClass()).isEmpty();
        assertThat(unknown.groupOrApplication()).isEmpty();
        assertThat(DeadLetterReader.read(null).format()).isEqualTo(DeadLetterFormat.UNKNOWN);
    }

    @Test
    void theFamilyWhoseMarkerComesLastWroteTheLetter() {
        String[] connect = {DeadLetterHeaders.CONNECT_EXCEPTION, "C", DeadLetterHeaders.CONNECT_TOPIC, "from-connect"};
        String[] streams = {DeadLetterHeaders.STREAMS_EXCEPTION, "S", DeadLetterHeaders.STREAMS_TOPIC, "from-streams"};
        String[] share = {ForeignHeaders.SHARE_TOPIC, "from-share", ForeignHeaders.SHARE_GROUP, "g"};
        String[] spring = {ForeignHeaders.SPRING_ORIGINAL_TOPIC, "from-spring", ForeignHeaders.SPRING_EXCEPTION, "P"};
        String[] ours = {DeadLetterHeaders.ERROR_CATEGORY, "RECORD"};

        assertThat(read(connect, streams).format()).as("Streams dead-lettered a Connect letter")
                .isEqualTo(DeadLetterFormat.STREAMS);
        assertThat(read(connect, streams).originalTopic().value()).contains("from-streams");
        assertThat(read(streams, connect).originalTopic().value()).contains("from-connect");
        assertThat(read(connect, spring).originalTopic().value()).contains("from-spring");
        assertThat(read(spring, share).originalTopic().value()).contains("from-share");
        assertThat(read(share, streams, connect, spring).format()).isEqualTo(DeadLetterFormat.SPRING);
        assertThat(read(spring, connect, ours).format()).as("ours never decides").isEqualTo(DeadLetterFormat.CONNECT);
        assertThat(read(ours).format()).isEqualTo(DeadLetterFormat.QUARANTINE);
    }

    @Test
    void theLastMarkerDecidesEvenWhenAFamilyRepeatsEarlier() {
        String[] connect = {DeadLetterHeaders.CONNECT_TOPIC, "connect-1"};
        String[] streams = {DeadLetterHeaders.STREAMS_TOPIC, "from-streams"};
        String[] connectAgain = {DeadLetterHeaders.CONNECT_TOPIC, "connect-2"};

        assertThat(read(connect, streams, connectAgain).format()).isEqualTo(DeadLetterFormat.CONNECT);
        assertThat(read(connect, streams, connectAgain).originalTopic().value()).contains("connect-2");
    }

    @Test
    void ourHeadersCountOnlyWhenOurWriterAddedThemAfterItsFamily() {
        String[] oursBlock = {DeadLetterHeaders.ERROR_CATEGORY, "RECORD", DeadLetterHeaders.TARGET_TOPIC, "target",
                DeadLetterHeaders.TARGET_PARTITION, "3", DeadLetterHeaders.PAYLOAD_TRUNCATED, "value",
                DeadLetterHeaders.APPLICATION_ID, "app"};
        String[] connect = {DeadLetterHeaders.CONNECT_TOPIC, "orders", DeadLetterHeaders.CONNECT_PARTITION, "1",
                DeadLetterHeaders.CONNECT_EXCEPTION, "a.B"};
        String[] streams = {DeadLetterHeaders.STREAMS_TOPIC, "clicks", DeadLetterHeaders.STREAMS_EXCEPTION, "a.S"};
        String[] spring = {ForeignHeaders.SPRING_ORIGINAL_TOPIC, "payments", ForeignHeaders.SPRING_EXCEPTION, "a.P"};
        String[] share = {ForeignHeaders.SHARE_TOPIC, "payments", ForeignHeaders.SHARE_GROUP, "g"};

        DeadLetterContext ourSink = read(connect, oursBlock);
        assertThat(ourSink.targetTopic().value()).contains("target");
        assertThat(ourSink.targetPartition().value()).contains(3);
        assertThat(ourSink.truncated()).isTrue();
        assertThat(read(streams, oursBlock).application().value()).contains("app");
        assertThat(read(oursBlock).targetTopic().value()).as("quarantine format").contains("target");
        for (String[] writer : List.of(spring, share, streams, connect)) {
            DeadLetterContext read = read(connect, oursBlock, writer);
            assertThat(read.targetTopic().value()).as(writer[0]).isEmpty();
            assertThat(read.targetTopic().illegal()).as(writer[0]).isFalse();
            assertThat(read.targetPartition().value()).as(writer[0]).isEmpty();
            assertThat(read.truncated()).as(writer[0]).isFalse();
            assertThat(read.application().value()).as(writer[0]).isEmpty();
        }
        // Spring and share groups never write ours, nor Kafka Connect's context headers after theirs: a letter whose
        // category of ours comes after their marker is our writer's, of a record that carried that marker (our sink
        // with dlq.context.headers.enable=false writes no family of its own)
        for (String[] foreign : List.of(spring, share)) {
            DeadLetterContext read = read(foreign, oursBlock);
            assertThat(read.format()).as(foreign[0]).isEqualTo(DeadLetterFormat.QUARANTINE);
            assertThat(read.targetTopic().value()).as(foreign[0]).contains("target");
            assertThat(read.originalTopic().value()).as("%s: not the record's marker", foreign[0]).isEmpty();
        }
    }

    @Test
    void ourHeadersWithoutOurErrorCategoryAfterTheFamilyAreTheFailedRecordsNeverARoutingInstruction() {
        String[] planted = {DeadLetterHeaders.TARGET_TOPIC, "payments", DeadLetterHeaders.TARGET_PARTITION, "0",
                DeadLetterHeaders.APPLICATION_ID, "evil", DeadLetterHeaders.SOURCE_RAW_KEY, "forged"};
        String[] connect = {DeadLetterHeaders.CONNECT_TOPIC, "orders", DeadLetterHeaders.CONNECT_PARTITION, "2",
                DeadLetterHeaders.CONNECT_OFFSET, "7", DeadLetterHeaders.CONNECT_EXCEPTION, "a.B"};
        String[] streams = {DeadLetterHeaders.STREAMS_TOPIC, "clicks", DeadLetterHeaders.STREAMS_EXCEPTION, "a.S"};
        String[] category = {DeadLetterHeaders.ERROR_CATEGORY, "RECORD"};

        for (DeadLetterContext read : List.of(read(planted, connect), read(planted, streams), read(connect, planted),
                read(category, planted, connect))) {
            assertThat(read.targetTopic().value()).isEmpty();
            assertThat(read.targetPartition().value()).isEmpty();
            assertThat(read.application().value()).isEmpty();
            assertThat(read.sourceRawKey()).isEmpty();
        }
        DeadLetterContext alone = read(planted);
        assertThat(alone.format()).as("no family, no category of ours").isEqualTo(DeadLetterFormat.UNKNOWN);
        assertThat(alone.targetTopic().value()).isEmpty();
        assertThat(read(connect, planted).originalTopic().value()).contains("orders");
    }

    @Test
    void aNullHeaderValueDoesNotMarkAFamily() {
        RecordHeaders headers = TextHeaders.of(ForeignHeaders.SPRING_ORIGINAL_TOPIC, "orders");
        headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, null);
        headers.add(DeadLetterHeaders.CONNECT_TOPIC, null);

        assertThat(DeadLetterReader.read(headers).format()).isEqualTo(DeadLetterFormat.SPRING);
    }

    @Test
    void readsHostileValuesAsIllegalOrBoundedNeverFailing() {
        String huge = "x".repeat(1_000_000);
        RecordHeaders headers = TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, huge,
                DeadLetterHeaders.CONNECT_TOPIC, "orders/../x", DeadLetterHeaders.CONNECT_PARTITION, "-1",
                DeadLetterHeaders.CONNECT_OFFSET, "9".repeat(30), DeadLetterHeaders.CONNECT_CONNECTOR_NAME,
                "c".repeat(250), DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, huge);
        headers.add(DeadLetterHeaders.CONNECT_TASK_ID, new byte[] {(byte) 0xC3, 0x28});

        DeadLetterContext read = DeadLetterReader.read(headers);

        assertThat(read.errorClass()).as("no class name").isEmpty();
        assertThat(read.errorMessage().orElseThrow())
                .hasSize(HeaderText.MAX_MESSAGE_CHARS + HeaderText.CUT_MARK.length());
        assertThat(read.originalTopic().illegal()).isTrue();
        assertThat(read.originalTopic().shown()).contains("orders/../x");
        assertThat(read.originalTopic().problem().orElseThrow()).doesNotContain("orders/../x");
        assertThat(read.originalPartition().illegal()).isTrue();
        assertThat(read.originalOffset().illegal()).isTrue();
        assertThat(read.connector().illegal()).isTrue();
        assertThat(read.connector().value()).isEmpty();
        assertThat(read.connector().shown().orElseThrow()).hasSize(250);
        assertThat(read.task()).contains(HeaderText.UNPARSEABLE);
    }

    @Test
    void readsAHugeTopicHeaderAsIllegalWithABoundedText() {
        DeadLetterContext read = DeadLetterReader.read(TextHeaders.of(ForeignHeaders.SHARE_TOPIC,
                "t".repeat(100_000)));

        assertThat(read.originalTopic().illegal()).isTrue();
        assertThat(read.originalTopic().shown().orElseThrow())
                .hasSize(HeaderText.MAX_NAME_CHARS + HeaderText.CUT_MARK.length());
    }

    @Test
    void theLastOfRepeatedHeadersCounts() {
        DeadLetterContext read = DeadLetterReader.read(TextHeaders.of(ForeignHeaders.SHARE_TOPIC, "first",
                ForeignHeaders.SHARE_TOPIC, "last"));

        assertThat(read.originalTopic().value()).contains("last");
    }

    @Test
    void everyFormatsErrorHeadersAreErrorHeaders() {
        for (String name : new String[] {DeadLetterHeaders.CONNECT_TOPIC, DeadLetterHeaders.STREAMS_OFFSET,
                ForeignHeaders.SHARE_GROUP, ForeignHeaders.SPRING_ORIGINAL_TIMESTAMP, DeadLetterHeaders.REPLAY_COUNT}) {
            assertThat(DeadLetterFormat.isErrorHeader(name)).as(name).isTrue();
        }
        assertThat(DeadLetterFormat.isErrorHeader("trace-id")).isFalse();
        assertThat(DeadLetterFormat.isErrorHeader("kafka_dltx")).isFalse();
    }

    private static void assertOrigin(DeadLetterContext read, String topic, int partition, long offset) {
        assertThat(read.originalTopic().value()).contains(topic);
        assertThat(read.originalPartition().value()).isEqualTo(Optional.of(partition));
        assertThat(read.originalOffset().value()).isEqualTo(Optional.of(offset));
    }

    private static DeadLetterContext read(String[]... families) {
        RecordHeaders headers = new RecordHeaders();
        for (String[] family : families) {
            for (int i = 0; i < family.length; i += 2) {
                headers.add(family[i], family[i + 1].getBytes(StandardCharsets.UTF_8));
            }
        }
        return DeadLetterReader.read(headers);
    }
}
