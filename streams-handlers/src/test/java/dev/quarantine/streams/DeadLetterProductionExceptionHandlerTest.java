package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

class DeadLetterProductionExceptionHandlerTest {

    private static final ProducerRecord<byte[], byte[]> OUTPUT =
            new ProducerRecord<>("output", null, bytes("out-key"), bytes("out-value"), new RecordHeaders());

    @Test
    void resumesWithADeadLetterForARecordError() {
        Response response = handler(Map.of()).handleError(context(null, null), OUTPUT, new RecordTooLargeException("big"));

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
        });
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
            assertThat(header(dlq.headers(), DeadLetterProductionExceptionHandler.SOURCE_RAW_VALUE_HEADER))
                    .isEqualTo("in-value");
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
    }

    @Test
    void committedConfigDocIsGeneratedFromTheConfigDef() throws Exception {
        Path doc = Path.of("..", "docs", "config", "streams-handler.rst");
        String generated = DeadLetterHandlerConfig.configDef().toEnrichedRst();
        if (Boolean.getBoolean("quarantine.docs.write")) {
            Files.writeString(doc, generated);
        }
        assertThat(Files.readString(doc)).as("docs/config/streams-handler.rst is stale: run with"
                + " -Dquarantine.docs.write=true").isEqualTo(generated);
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
        return new ErrorHandlerContext() {
            public String topic() { return "input"; }
            public int partition() { return 1; }
            public long offset() { return 42; }
            public Headers headers() { return new RecordHeaders(); }
            public String processorNodeId() { return "sink"; }
            public TaskId taskId() { return new TaskId(0, 1); }
            public long timestamp() { return 0; }
            public byte[] sourceRawKey() { return rawKey; }
            public byte[] sourceRawValue() { return rawValue; }
        };
    }

    private static String header(Headers headers, String name) {
        return headers.lastHeader(name) == null ? null
                : new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
