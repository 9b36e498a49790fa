package dev.quarantine.streams;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Response;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Result;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.SerializationExceptionOrigin;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.sandbox.ConfigDocs;

class DeadLetterProductionExceptionHandlerTest {

    /** The record context's time (the input record's, unless the topology forwarded another). */
    private static final long CONTEXT_TIME = 1_764_000_000_000L;
    private static final ProducerRecord<byte[], byte[]> OUTPUT =
            new ProducerRecord<>("output", null, bytes("out-key"), bytes("out-value"), new RecordHeaders());

    @Test
    void resumesWithADeadLetterForARecordError() {
        Response response = handler(Map.of()).handleError(context(null, null), OUTPUT,
                new RecordTooLargeException("big"));

        assertThat(response.result()).isEqualTo(Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(dlq -> {
            assertThat(dlq.topic()).isEqualTo("dlq");
            assertThat(dlq.key()).isEqualTo(bytes("out-key"));
            assertThat(dlq.value()).isEqualTo(bytes("out-value"));
            assertThat(header(dlq.headers(), DeadLetterHeaders.STREAMS_TOPIC)).isEqualTo("input");
            assertThat(header(dlq.headers(), DeadLetterHeaders.STREAMS_PARTITION)).isEqualTo("1");
            assertThat(header(dlq.headers(), DeadLetterHeaders.STREAMS_OFFSET)).isEqualTo("42");
            assertThat(header(dlq.headers(), DeadLetterHeaders.TARGET_TOPIC)).isEqualTo("output");
            assertThat(header(dlq.headers(), DeadLetterHeaders.ERROR_CATEGORY)).isEqualTo("RECORD");
            assertThat(header(dlq.headers(), DeadLetterProductionExceptionHandler.PAYLOAD_ORIGIN_HEADER))
                    .isEqualTo("output");
            assertThat(header(dlq.headers(), DeadLetterHeaders.APPLICATION_ID)).isEqualTo("unit-app");
        });
    }

    @Test
    void aDeadLetterKeepsTheFailedOutputsTimestampOrElseTheRecordContexts() {
        DeadLetterProductionExceptionHandler handler = handler(Map.of());
        ProducerRecord<byte[], byte[]> stamped = new ProducerRecord<>("output", null, CONTEXT_TIME - 5,
                bytes("out-key"), bytes("out-value"));
        ProducerRecord<Object, Object> unserializable = new ProducerRecord<>("output", null, CONTEXT_TIME - 7,
                new Object(), new Object());

        assertThat(handler.handleError(context(null, null), stamped, new RecordTooLargeException("big"))
                .deadLetterQueueRecords()).singleElement()
                .satisfies(dlq -> assertThat(dlq.timestamp()).isEqualTo(CONTEXT_TIME - 5));
        assertThat(handler.handleError(context(null, null), OUTPUT, new RecordTooLargeException("big"))
                .deadLetterQueueRecords()).singleElement()
                .satisfies(dlq -> assertThat(dlq.timestamp()).as("an output without one").isEqualTo(CONTEXT_TIME));
        assertThat(handler.handleSerializationError(context(bytes("in-key"), bytes("in-value")), unserializable,
                new SerializationException("no"), SerializationExceptionOrigin.VALUE).deadLetterQueueRecords())
                .singleElement().satisfies(dlq -> assertThat(dlq.timestamp()).isEqualTo(CONTEXT_TIME - 7));
    }

    @Test
    void failsOnFencingAndOnADeadLetterThatItselfFailed() {
        DeadLetterProductionExceptionHandler handler = handler(Map.of());
        ProducerRecord<byte[], byte[]> deadLetter = handler.handleError(context(null, null), OUTPUT,
                new RecordTooLargeException("big")).deadLetterQueueRecords().get(0);

        assertThat(handler.handleError(context(null, null), OUTPUT, new ProducerFencedException("x")).result())
                .isEqualTo(Result.FAIL);
        assertThat(handler.handleError(context(null, null), deadLetter, new RecordTooLargeException("x")).result())
                .isEqualTo(Result.FAIL);
    }

    @Test
    void retriesARetriableErrorAFewTimesThenDeadLettersIt() {
        DeadLetterProductionExceptionHandler handler =
                handler(Map.of(DeadLetterHandlerConfig.PRODUCTION_RETRIES_CONFIG, 2));
        ErrorHandlerContext context = context(null, null);

        assertThat(handler.handleError(context, OUTPUT, new TimeoutException("t")).result()).isEqualTo(Result.RETRY);
        assertThat(handler.handleError(context, OUTPUT, new TimeoutException("t")).result()).isEqualTo(Result.RETRY);
        Response third = handler.handleError(context, OUTPUT, new TimeoutException("t"));
        assertThat(third.result()).isEqualTo(Result.RESUME);
        assertThat(third.deadLetterQueueRecords()).hasSize(1);
    }

    @Test
    void deadLettersASerializationErrorWithTheRawInput() {
        Response response = handler(Map.of()).handleSerializationError(context(bytes("in-key"), bytes("in-value")),
                new ProducerRecord<>("output", new Object(), new Object()), new SerializationException("no"),
                SerializationExceptionOrigin.VALUE);

        assertThat(response.result()).isEqualTo(Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(dlq -> {
            assertThat(dlq.key()).isEqualTo(bytes("in-key"));
            assertThat(dlq.value()).isEqualTo(bytes("in-value"));
        });
    }

    @Test
    void retriesADeadLetterThatFailedWithARetriableErrorThenFailsWithoutDeadLetteringItAgain() {
        DeadLetterProductionExceptionHandler handler =
                handler(Map.of(DeadLetterHandlerConfig.PRODUCTION_RETRIES_CONFIG, 2));
        ErrorHandlerContext context = context(null, null);
        ProducerRecord<byte[], byte[]> deadLetter = handler.handleError(context, OUTPUT,
                new RecordTooLargeException("big")).deadLetterQueueRecords().get(0);

        assertThat(handler.handleError(context, deadLetter, new TimeoutException("t")).result())
                .isEqualTo(Result.RETRY);
        assertThat(handler.handleError(context, deadLetter, new TimeoutException("t")).result())
                .isEqualTo(Result.RETRY);
        Response third = handler.handleError(context, deadLetter, new TimeoutException("t"));
        assertThat(third.result()).isEqualTo(Result.FAIL);
        assertThat(third.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void deadLettersAnOutputThatCarriesQuarantineHeadersLikeAReplayedDeadLetter() {
        Headers replayed = new RecordHeaders();
        replayed.add(DeadLetterHeaders.ERROR_CATEGORY, bytes("RECORD"));
        replayed.add(DeadLetterHeaders.TARGET_TOPIC, bytes("output"));
        ProducerRecord<byte[], byte[]> output =
                new ProducerRecord<>("output", null, bytes("out-key"), bytes("out-value"), replayed);

        Response response = handler(Map.of()).handleError(context(null, null), output,
                new RecordTooLargeException("big"));

        assertThat(response.result()).isEqualTo(Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement()
                .satisfies(dlq -> assertThat(dlq.value()).isEqualTo(bytes("out-value")));
    }

    @Test
    void anOutputsOwnCopiesOfOurHeadersNeverStandForTheDeadLettersOwn() {
        Headers planted = new RecordHeaders();
        planted.add(DeadLetterHeaders.TARGET_PARTITION, bytes("5"));
        planted.add(DeadLetterHeaders.SOURCE_RAW_KEY, bytes("forged-key"));
        planted.add(DeadLetterHeaders.APPLICATION_ID, bytes("evil"));
        ProducerRecord<byte[], byte[]> output =
                new ProducerRecord<>("output", null, bytes("out-key"), bytes("out-value"), planted);
        DeadLetterProductionExceptionHandler handler = handler(Map.of());

        Headers withoutRaw = handler.handleError(context(null, null), output, new RecordTooLargeException("big"))
                .deadLetterQueueRecords().get(0).headers();
        Headers withRaw = handler.handleError(context(bytes("in-key"), null), output,
                new RecordTooLargeException("big")).deadLetterQueueRecords().get(0).headers();

        assertThat(withoutRaw.lastHeader(DeadLetterHeaders.TARGET_PARTITION)).as("the partitioner's choice").isNull();
        assertThat(withoutRaw.lastHeader(DeadLetterHeaders.SOURCE_RAW_KEY)).isNull();
        assertThat(withoutRaw.headers(DeadLetterHeaders.APPLICATION_ID)).singleElement()
                .satisfies(h -> assertThat(h.value()).isEqualTo(bytes("unit-app")));
        assertThat(withRaw.headers(DeadLetterHeaders.SOURCE_RAW_KEY)).singleElement()
                .satisfies(h -> assertThat(h.value()).isEqualTo(bytes("in-key")));
    }

    @Test
    void failsOnAChangelogWriteInsteadOfDeadLetteringIt() {
        ProducerRecord<byte[], byte[]> changelog = new ProducerRecord<>("unit-app-store-changelog", 0,
                bytes("k"), bytes("aggregate"), new RecordHeaders());

        Response response = handler(Map.of()).handleError(changelogWriteContext(), changelog,
                new RecordTooLargeException("big"));

        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void failsOnARepartitionWriteButDeadLettersAnotherAppsTopicThatOnlyEndsLikeOne() {
        DeadLetterProductionExceptionHandler handler = handler(Map.of());
        ProducerRecord<byte[], byte[]> ours = new ProducerRecord<>("unit-app-KSTREAM-KEY-SELECT-0000000001-repartition",
                null, bytes("k"), bytes("v"), new RecordHeaders());
        ProducerRecord<byte[], byte[]> theirs = new ProducerRecord<>("other-app-orders-repartition", null,
                bytes("k"), bytes("v"), new RecordHeaders());

        Response internal = handler.handleError(context(null, null), ours, new RecordTooLargeException("big"));
        Response output = handler.handleError(context(null, null), theirs, new RecordTooLargeException("big"));

        assertThat(internal.result()).isEqualTo(Result.FAIL);
        assertThat(internal.deadLetterQueueRecords()).isEmpty();
        assertThat(output.result()).isEqualTo(Result.RESUME);
        assertThat(output.deadLetterQueueRecords()).hasSize(1);
    }

    @Test
    void saysWhoseKeyAndValueTheDeadLetterOfASerializationErrorCarries() {
        DeadLetterProductionExceptionHandler handler = handler(Map.of());
        ProducerRecord<Object, Object> output = new ProducerRecord<>("output", new Object(), new Object());

        Response firstOutput = handler.handleSerializationError(context(bytes("in-key"), bytes("in-value")), output,
                new SerializationException("no"), SerializationExceptionOrigin.VALUE);
        Response laterOutput = handler.handleSerializationError(context(null, null), output,
                new SerializationException("no"), SerializationExceptionOrigin.KEY);

        assertThat(firstOutput.deadLetterQueueRecords()).singleElement().satisfies(dlq -> {
            assertThat(header(dlq.headers(), DeadLetterProductionExceptionHandler.PAYLOAD_ORIGIN_HEADER))
                    .isEqualTo("input");
            assertThat(header(dlq.headers(), DeadLetterProductionExceptionHandler.SERIALIZATION_ORIGIN_HEADER))
                    .isEqualTo("VALUE");
        });
        assertThat(laterOutput.deadLetterQueueRecords()).singleElement().satisfies(dlq -> {
            assertThat(dlq.key()).isNull();
            assertThat(dlq.value()).isNull();
            assertThat(header(dlq.headers(), DeadLetterProductionExceptionHandler.PAYLOAD_ORIGIN_HEADER))
                    .isEqualTo("none");
            assertThat(header(dlq.headers(), DeadLetterProductionExceptionHandler.SERIALIZATION_ORIGIN_HEADER))
                    .isEqualTo("KEY");
        });
    }

    @Test
    void failsInsteadOfDroppingWhenNoDeadLetterTopicIsSet() {
        DeadLetterProductionExceptionHandler handler = new DeadLetterProductionExceptionHandler();
        handler.configure(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "app"));

        assertThat(handler.handleError(context(null, null), OUTPUT, new RecordTooLargeException("big")).result())
                .isEqualTo(Result.FAIL);
    }

    @Test
    void rejectsABadSettingByName() {
        assertThatThrownBy(() -> handler(Map.of(DeadLetterHandlerConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG, 10)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(DeadLetterHandlerConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG);
        assertThatThrownBy(() -> handler(Map.of(DeadLetterHandlerConfig.DLQ_MAX_RATIO_CONFIG, 1.5)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(DeadLetterHandlerConfig.DLQ_MAX_RATIO_CONFIG);
    }

    @Test
    void committedConfigDocIsGeneratedFromTheConfigDef() throws Exception {
        ConfigDocs.assertCurrent(DeadLetterHandlerConfig.configDef(), "streams-handler.rst",
                DeadLetterProductionExceptionHandlerTest.class);
    }

    private static DeadLetterProductionExceptionHandler handler(Map<String, Object> extra) {
        Map<String, Object> configs = new HashMap<>(extra);
        configs.put(StreamsConfig.APPLICATION_ID_CONFIG, "unit-app");
        configs.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "dlq");
        DeadLetterProductionExceptionHandler handler = new DeadLetterProductionExceptionHandler();
        handler.configure(configs);
        return handler;
    }

    private static ErrorHandlerContext context(byte[] rawKey, byte[] rawValue) {
        return context("input", "sink", rawKey, rawValue);
    }

    /** What Kafka Streams passes for a store's changelog write: no input record, no processor node. */
    private static ErrorHandlerContext changelogWriteContext() {
        return context(null, null, null, null);
    }

    private static ErrorHandlerContext context(String topic, String nodeId, byte[] rawKey, byte[] rawValue) {
        return new ErrorHandlerContext() {
            public String topic() { return topic; }
            public int partition() { return topic == null ? -1 : 1; }
            public long offset() { return topic == null ? -1 : 42; }
            public Headers headers() { return new RecordHeaders(); }
            public String processorNodeId() { return nodeId; }
            public TaskId taskId() { return new TaskId(0, 1); }
            public long timestamp() { return CONTEXT_TIME; }
            public byte[] sourceRawKey() { return rawKey; }
            public byte[] sourceRawValue() { return rawValue; }
        };
    }

    private static String header(Headers headers, String name) {
        return headers.lastHeader(name) == null ? null
                : new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
