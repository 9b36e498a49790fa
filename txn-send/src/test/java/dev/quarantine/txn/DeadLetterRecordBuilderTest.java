package dev.quarantine.txn;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

class DeadLetterRecordBuilderTest {

    private static final Header[] ORIGINAL_HEADERS = {new RecordHeader("trace-id", bytes("abc"))};

    @Test
    void carriesThePayloadOriginalHeadersAndConnectContext() {
        ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                100_000).build(DeadLetter.of(bytes("key"), bytes("value"), ORIGINAL_HEADERS,
                        new RecordTooLargeException("too big"))
                .source("orders", 3, 42L).target("orders-copy", null)
                .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "copy"));

        assertThat(dlq.topic()).isEqualTo("dlq");
        assertThat(dlq.key()).isEqualTo(bytes("key"));
        assertThat(dlq.value()).isEqualTo(bytes("value"));
        Headers h = dlq.headers();
        assertThat(text(h, "trace-id")).isEqualTo("abc");
        assertThat(text(h, DeadLetterHeaders.CONNECT_TOPIC)).isEqualTo("orders");
        assertThat(text(h, DeadLetterHeaders.CONNECT_PARTITION)).isEqualTo("3");
        assertThat(text(h, DeadLetterHeaders.CONNECT_OFFSET)).isEqualTo("42");
        assertThat(text(h, DeadLetterHeaders.CONNECT_CONNECTOR_NAME)).isEqualTo("copy");
        assertThat(text(h, DeadLetterHeaders.CONNECT_EXCEPTION)).isEqualTo(RecordTooLargeException.class.getName());
        assertThat(text(h, DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE)).isEqualTo("too big");
        assertThat(text(h, DeadLetterHeaders.CONNECT_EXCEPTION_STACKTRACE)).contains("RecordTooLargeException");
        assertThat(text(h, DeadLetterHeaders.ERROR_CATEGORY)).isEqualTo("RECORD");
        assertThat(text(h, DeadLetterHeaders.TARGET_TOPIC)).isEqualTo("orders-copy");
        assertThat(text(h, DeadLetterHeaders.PAYLOAD_TRUNCATED)).isEqualTo("false");
        assertThat(Integer.parseInt(text(h, DeadLetterHeaders.ORIGINAL_SIZE)))
                .isEqualTo(RecordSizes.producerEstimate(bytes("key"), bytes("value"), ORIGINAL_HEADERS));
    }

    @Test
    void dropsTheFailedRecordsCopiesOfTheHeadersItWritesItselfSoNoneStandsInForAnAbsentOne() {
        Header[] planted = {new RecordHeader("trace-id", bytes("abc")),
            new RecordHeader(DeadLetterHeaders.TARGET_TOPIC, bytes("payments")),
            new RecordHeader(DeadLetterHeaders.TARGET_PARTITION, bytes("5")),
            new RecordHeader(DeadLetterHeaders.ERROR_CATEGORY, bytes("RECORD")),
            new RecordHeader(DeadLetterHeaders.APPLICATION_ID, bytes("evil")),
            new RecordHeader(DeadLetterHeaders.REPLAY_COUNT, bytes("2"))};
        ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.STREAMS,
                100_000).build(DeadLetter.of(null, bytes("v"), planted, new RecordTooLargeException("x"))
                .source("input", 0, 7L).target("out", null));

        Headers h = dlq.headers();
        assertThat(h.lastHeader(DeadLetterHeaders.TARGET_PARTITION)).as("left to the partitioner: none").isNull();
        assertThat(h.lastHeader(DeadLetterHeaders.APPLICATION_ID)).isNull();
        assertThat(h.headers(DeadLetterHeaders.TARGET_TOPIC)).singleElement()
                .satisfies(ours -> assertThat(ours.value()).isEqualTo(bytes("out")));
        assertThat(h.headers(DeadLetterHeaders.ERROR_CATEGORY)).hasSize(1);
        assertThat(text(h, "trace-id")).isEqualTo("abc");
        assertThat(text(h, DeadLetterHeaders.REPLAY_COUNT)).as("the replay's loop guard travels on").isEqualTo("2");
    }

    @Test
    void writesTheInputsRawKeyAndValueOnlyWhenTheCallerSetsThemNeverTheFailedRecordsOwn() {
        Header[] planted = {new RecordHeader(DeadLetterHeaders.SOURCE_RAW_KEY, bytes("forged-key")),
            new RecordHeader(DeadLetterHeaders.SOURCE_RAW_VALUE, bytes("forged-value"))};
        DeadLetterRecordBuilder builder = new DeadLetterRecordBuilder("dlq",
                DeadLetterRecordBuilder.HeaderStyle.CONNECT, 100_000);

        Headers sink = builder.build(DeadLetter.of(null, bytes("v"), planted, new RecordTooLargeException("x"))
                .source("input", 0, 7L)).headers();
        Headers streams = builder.build(DeadLetter.of(null, bytes("v"), planted, new RecordTooLargeException("x"))
                .source("input", 0, 7L).sourceRaw(bytes("raw-key"), null)).headers();

        assertThat(sink.lastHeader(DeadLetterHeaders.SOURCE_RAW_KEY)).as("a source record's own copy").isNull();
        assertThat(sink.lastHeader(DeadLetterHeaders.SOURCE_RAW_VALUE)).isNull();
        assertThat(streams.headers(DeadLetterHeaders.SOURCE_RAW_KEY)).singleElement()
                .satisfies(raw -> assertThat(raw.value()).isEqualTo(bytes("raw-key")));
        assertThat(streams.lastHeader(DeadLetterHeaders.SOURCE_RAW_VALUE)).isNull();
    }

    @Test
    void usesStreamsHeaderNamesOnTheStreamsPath() {
        ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.STREAMS,
                100_000).build(DeadLetter.of(null, bytes("v"), null, new RecordTooLargeException("x"))
                .source("input", 0, 7L));

        assertThat(text(dlq.headers(), DeadLetterHeaders.STREAMS_TOPIC)).isEqualTo("input");
        assertThat(text(dlq.headers(), DeadLetterHeaders.STREAMS_OFFSET)).isEqualTo("7");
        assertThat(text(dlq.headers(), DeadLetterHeaders.STREAMS_EXCEPTION)).isEqualTo(RecordTooLargeException.class.getName());
        assertThat(dlq.headers().lastHeader(DeadLetterHeaders.CONNECT_TOPIC)).isNull();
    }

    @Test
    void keepsTheFailedRecordsTimestampAndLeavesStampingToTheProducerWithoutOne() {
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        DeadLetterRecordBuilder builder = new DeadLetterRecordBuilder("dlq",
                DeadLetterRecordBuilder.HeaderStyle.CONNECT, 100_000);

        assertThat(builder.build(letter().timestamp(twoDaysAgo)).timestamp()).isEqualTo(twoDaysAgo);
        assertThat(builder.build(letter().timestamp(twoDaysAgo), 2_000).timestamp())
                .as("also when cut to fit").isEqualTo(twoDaysAgo);
        assertThat(builder.build(letter()).timestamp()).as("none given").isNull();
        assertThat(builder.build(letter().timestamp(null)).timestamp()).isNull();
        assertThat(builder.build(letter().timestamp(-1L)).timestamp()).as("Kafka's NO_TIMESTAMP").isNull();
    }

    @Test
    void leavesStampingToTheProducerWhenTheTimestampIsWhatTheTopicRejected() {
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        DeadLetter tooOld = DeadLetter.of(bytes("k"), bytes("v"), null,
                new InvalidTimestampException("older than message.timestamp.before.max.ms")).timestamp(twoDaysAgo);

        assertThat(new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT, 100_000)
                .build(tooOld).timestamp()).isNull();
    }

    @Test
    void writesTheMessageHeaderWithANullValueForAnExceptionWithoutAMessageAsConnectAndStreamsDo() {
        for (DeadLetterRecordBuilder.HeaderStyle style : DeadLetterRecordBuilder.HeaderStyle.values()) {
            String name = style == DeadLetterRecordBuilder.HeaderStyle.CONNECT
                    ? DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE : DeadLetterHeaders.STREAMS_EXCEPTION_MESSAGE;
            ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", style, 100_000)
                    .build(DeadLetter.of(bytes("k"), bytes("v"), null, new NullPointerException()));

            assertThat(dlq.headers().headers(name)).as(style.name()).singleElement()
                    .satisfies(header -> assertThat(header.value()).isNull());
        }
    }

    @Test
    void truncatesATooLargePayloadToTheLimitAndRecordsTheOriginalSize() {
        byte[] value = new byte[50_000];
        byte[] key = new byte[3_000];
        int limit = 8_000;

        ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                limit).build(DeadLetter.of(key, value, ORIGINAL_HEADERS, new RecordTooLargeException("x")));

        assertThat(RecordSizes.producerEstimate(dlq.key(), dlq.value(), dlq.headers().toArray())).isLessThanOrEqualTo(limit);
        assertThat(dlq.value()).isNotEmpty();
        assertThat(dlq.key()).isEqualTo(key);
        assertThat(text(dlq.headers(), DeadLetterHeaders.PAYLOAD_TRUNCATED)).isEqualTo("value");
        assertThat(Integer.parseInt(text(dlq.headers(), DeadLetterHeaders.ORIGINAL_SIZE))).isGreaterThan(53_000);
    }

    @Test
    void dropsOriginalHeadersAndShortensTheStackTraceWhenHeadersAloneAreTooLarge() {
        Header[] huge = {new RecordHeader("blob", new byte[5_000])};

        ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                DeadLetterRecordBuilder.MIN_MAX_BYTES).build(DeadLetter.of(new byte[100], new byte[100], huge,
                        new RecordTooLargeException("x")));

        assertThat(RecordSizes.producerEstimate(dlq.key(), dlq.value(), dlq.headers().toArray()))
                .isLessThanOrEqualTo(DeadLetterRecordBuilder.MIN_MAX_BYTES);
        assertThat(dlq.headers().lastHeader("blob")).isNull();
        assertThat(text(dlq.headers(), DeadLetterHeaders.PAYLOAD_TRUNCATED)).contains("headers");
    }

    @Test
    void keepsEveryDeadLetterWithinTheBytesItsProducerAccepts() {
        DeadLetterRecordBuilder builder = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                1_000_000);
        Header[] huge = {new RecordHeader("blob", new byte[3_000]), new RecordHeader("trace-id", bytes("abc"))};
        for (int accepted = DeadLetterRecordBuilder.MIN_MAX_BYTES; accepted < 34_000; accepted += 397) {
            ProducerRecord<byte[], byte[]> dlq = builder.build(DeadLetter.of(new byte[2_000], new byte[30_000], huge,
                    new RecordTooLargeException("x")).source("orders", 1, 9L), accepted);

            assertThat(RecordSizes.producerEstimate(dlq.key(), dlq.value(), dlq.headers().toArray()))
                    .as("dead letter built for %d accepted bytes", accepted).isLessThanOrEqualTo(accepted);
            assertThat(text(dlq.headers(), DeadLetterHeaders.PAYLOAD_TRUNCATED)).isNotEqualTo("false");
        }
    }

    @Test
    void keepsTheBuildersOwnLimitWhenTheProducerAcceptsMore() {
        ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                5_000).build(DeadLetter.of(null, new byte[20_000], null, new RecordTooLargeException("x")), 1_000_000);

        assertThat(RecordSizes.producerEstimate(dlq.key(), dlq.value(), dlq.headers().toArray())).isLessThanOrEqualTo(5_000);
        assertThat(text(dlq.headers(), DeadLetterHeaders.PAYLOAD_TRUNCATED)).isEqualTo("value");
    }

    @Test
    void refusesWhenTheProducerAcceptsLessThanAnyDeadLetterNeeds() {
        DeadLetterRecordBuilder builder = new DeadLetterRecordBuilder("orders-dlq",
                DeadLetterRecordBuilder.HeaderStyle.CONNECT, 100_000);

        assertThatThrownBy(() -> builder.build(DeadLetter.of(null, bytes("v"), null,
                new RecordTooLargeException("x")), 500))
                .isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("orders-dlq").hasMessageContaining("500").hasMessageContaining("max.message.bytes");
    }

    @Test
    void cutsTheContextValuesWhenTheContextHeadersAloneAreTooLargeAndSaysSo() {
        String hugeName = "c".repeat(3_000);

        ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                DeadLetterRecordBuilder.MIN_MAX_BYTES).build(DeadLetter.of(bytes("k"), bytes("v"), null,
                        new RecordTooLargeException("x")).source("orders", 1, 9L)
                .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, hugeName));

        assertThat(RecordSizes.producerEstimate(dlq.key(), dlq.value(), dlq.headers().toArray()))
                .isLessThanOrEqualTo(DeadLetterRecordBuilder.MIN_MAX_BYTES);
        assertThat(text(dlq.headers(), DeadLetterHeaders.CONNECT_CONNECTOR_NAME))
                .isEqualTo("c".repeat(DeadLetterRecordBuilder.CONTEXT_CUT_CHARS));
        assertThat(text(dlq.headers(), DeadLetterHeaders.PAYLOAD_TRUNCATED))
                .as("the letter had no headers to cut; its key and value are whole").isEqualTo("context");
        assertThat(text(dlq.headers(), DeadLetterHeaders.CONNECT_OFFSET)).isEqualTo("9");
        assertThat(dlq.value()).as("the payload fits once the context is cut").isEqualTo(bytes("v"));
    }

    @Test
    void saysTheFailedRecordsHeadersWereCutOnlyWhenItHadAny() {
        ProducerRecord<byte[], byte[]> dlq = new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                DeadLetterRecordBuilder.MIN_MAX_BYTES).build(DeadLetter.of(bytes("k"), bytes("v"),
                        new Header[] {new RecordHeader("h", bytes("x".repeat(1_000)))},
                        new RecordTooLargeException("x")).source("orders", 1, 9L)
                .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "c".repeat(3_000)));

        assertThat(text(dlq.headers(), DeadLetterHeaders.PAYLOAD_TRUNCATED)).isEqualTo("headers,context");
        assertThat(dlq.headers().lastHeader("h")).as("the record's own header, cut").isNull();
    }

    @Test
    void failsNamingTheRecordWhenEvenTheCutContextDoesNotFit() {
        DeadLetter letter = DeadLetter.of(null, bytes("v"), null, new RecordTooLargeException("x"))
                .source("orders", 1, 9L);
        for (int i = 0; i < 40; i++) {
            letter.context("__quarantine.extra." + i, "x".repeat(100));
        }
        DeadLetterRecordBuilder builder = new DeadLetterRecordBuilder("orders-dlq",
                DeadLetterRecordBuilder.HeaderStyle.CONNECT, DeadLetterRecordBuilder.MIN_MAX_BYTES);

        assertThatThrownBy(() -> builder.build(letter)).isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("orders-1@9").hasMessageContaining("orders-dlq")
                .hasMessageContaining("max.message.bytes");
    }

    @Test
    void refusesALimitTooSmallForTheContextHeaders() {
        assertThatThrownBy(() -> new DeadLetterRecordBuilder("dlq", DeadLetterRecordBuilder.HeaderStyle.CONNECT, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBytes");
    }

    private static String text(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        assertThat(header).as("header %s", name).isNotNull();
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    private static DeadLetter letter() {
        return DeadLetter.of(bytes("key"), new byte[3_000], ORIGINAL_HEADERS, new RecordTooLargeException("too big"))
                .source("orders", 0, 1L);
    }
}
