package dev.quarantine.streams;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.streams.HandlerDecisions.Decision;
import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterBreaker;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder;
import dev.quarantine.txn.ErrorClassMetrics;
import dev.quarantine.txn.RecordPositions;
import dev.quarantine.txn.SendErrorCategory;
import dev.quarantine.txn.SendErrors;

/**
 * A Kafka Streams {@link ProductionExceptionHandler} that writes an output record the producer rejects to Kafka's
 * dead-letter topic ({@code errors.dead.letter.queue.topic.name}) and lets the task go on.
 *
 * <p>Set it with {@code production.exception.handler} (or the older {@code default.production.exception.handler}).
 * Under {@code exactly_once_v2} use it with {@link IgnoreSendErrorsClientSupplier}, whose producer leaves a poison
 * record out of the transaction before it can doom it: the dead letter then commits in the same transaction as the
 * good output. Without the supplier, a record rejected by the broker still aborts the transaction (stock Kafka).
 *
 * <p>What it answers is the table of {@link HandlerDecisions}: a poison output is dead-lettered, a retriable error
 * retried a few times, and a record to one of the app's internal topics or to the dead-letter topic itself is never
 * dead-lettered (FAIL, with a message that names the topic and the setting to change). A dead letter is kept within
 * the smallest limit that applies ({@code quarantine.dlq.payload.max.bytes}, and the producer's and the dead-letter
 * topic's limits, read through the supplier's producers). The breaker ({@code quarantine.dlq.max.ratio}) fails the
 * task when most of the app's outputs are being dead-lettered. The handler finds the supplier's producers and the
 * breaker through the one thing Kafka Streams gives both, the app's configs ({@link AppDeadLetters}).
 *
 * <p>Why a changelog write must never be answered with RESUME and a dead letter, besides the state it would lose:
 * Kafka Streams 4.4 sends a changelog record with no processor context, and sends the dead letters of a
 * RESUME with the context of the failed record; when such a dead letter is written, {@code RecordCollectorImpl}'s
 * send callback records a metric through that null context and fails with a NullPointerException, which kills the
 * stream thread. This handler never answers RESUME for a record without a processor node, so that path is never
 * taken.
 *
 * <p>The dead letter holds the failing output record's key, value and headers ({@value #PAYLOAD_ORIGIN_HEADER}
 * {@code output}), or, for a serialization error, the input record's raw key and value ({@code input}) or nothing
 * ({@code none}: Kafka Streams passes the raw input only with the first output of an input record); Kafka Streams'
 * {@code __streams.errors.*} headers with the input record's topic, partition and offset and the exception; ours
 * ({@code __quarantine.*}) with the output topic, the output's size, the error category and the {@code application.id}.
 * It keeps the failed output's timestamp (the input record's time, unless the topology set another), or the
 * context's when the output has none, as Kafka Streams' own dead-letter records keep the record context's.
 */
public class DeadLetterProductionExceptionHandler implements ProductionExceptionHandler {

    /** Header with the input record's raw key, when Kafka Streams provides it with a production error. */
    public static final String SOURCE_RAW_KEY_HEADER = DeadLetterHeaders.SOURCE_RAW_KEY;
    /** Header with the input record's raw value, when Kafka Streams provides it with a production error. */
    public static final String SOURCE_RAW_VALUE_HEADER = DeadLetterHeaders.SOURCE_RAW_VALUE;
    /**
     * Header saying whose key and value the dead letter carries: {@code output} (the failing output's),
     * {@code input} (the input record's raw bytes: the output could not be serialized) or {@code none} (the output
     * could not be serialized and Kafka Streams did not pass the input's raw bytes: key and value are null).
     */
    public static final String PAYLOAD_ORIGIN_HEADER = DeadLetterHeaders.PAYLOAD_ORIGIN;
    /** Header with the part of the output that could not be serialized: {@code KEY} or {@code VALUE}. */
    public static final String SERIALIZATION_ORIGIN_HEADER = "__quarantine.serialization.origin";

    private static final Logger log = LoggerFactory.getLogger(DeadLetterProductionExceptionHandler.class);
    private static final int MAX_TRACKED_RETRIES = 10_000;

    private AppDeadLetters app;
    private HandlerDecisions decisions;
    private Optional<DeadLetterRecordBuilder> deadLetters = Optional.empty();
    private final Map<String, Integer> retries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > MAX_TRACKED_RETRIES;
        }
    };

    @Override
    public void configure(Map<String, ?> configs) {
        KafkaStreamsRequirement.require(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, getClass());
        app = AppDeadLetters.of(configs);
        DeadLetterHandlerConfig config = app.config();
        decisions = new HandlerDecisions(config.productionRetries());
        deadLetters = config.deadLetterTopic().map(topic -> new DeadLetterRecordBuilder(topic,
                DeadLetterRecordBuilder.HeaderStyle.STREAMS, config.payloadMaxBytes()));
        if (deadLetters.isEmpty()) {
            log.warn("{} is not set: an output record that cannot be written will stop the task (FAIL). Set it to"
                    + " write such records to a dead-letter topic and go on.",
                    StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        }
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
                                Exception exception) {
        TopicKind kind = app.topics().kind(record.topic(), context.processorNodeId());
        SendErrorCategory category = SendErrors.classify(exception);
        Decision decision = decide(context, record.topic(), category, kind);
        if (decision != Decision.DEAD_LETTER) {
            return answer(decision, context, record.topic(), kind, category, exception);
        }
        DeadLetter letter = DeadLetter.of(record.key(), record.value(),
                record.headers().toArray(), exception).sourceRaw(context.sourceRawKey(), context.sourceRawValue())
                .context(PAYLOAD_ORIGIN_HEADER, "output");
        return deadLetter(context, record, letter, exception);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        TopicKind kind = app.topics().kind(record.topic(), context.processorNodeId());
        Decision decision = decide(context, record.topic(), SendErrorCategory.RECORD, kind);
        if (decision != Decision.DEAD_LETTER) {
            return answer(decision, context, record.topic(), kind, SendErrorCategory.RECORD, exception);
        }
        boolean input = context.sourceRawKey() != null || context.sourceRawValue() != null;
        DeadLetter letter = DeadLetter.of(context.sourceRawKey(), context.sourceRawValue(),
                        record.headers().toArray(), exception)
                .context(PAYLOAD_ORIGIN_HEADER, input ? "input" : "none")
                .context(SERIALIZATION_ORIGIN_HEADER, origin.name());
        return deadLetter(context, record, letter, exception);
    }

    private synchronized Decision decide(ErrorHandlerContext context, String topic, SendErrorCategory category,
                                         TopicKind kind) {
        String key = context.taskId() + "/" + input(context) + "/" + topic;
        int attempt = category == SendErrorCategory.RETRIABLE ? retries.getOrDefault(key, 0) : 0;
        Decision decision = decisions.decide(category, kind, attempt);
        if (decision == Decision.RETRY) {
            retries.put(key, attempt + 1);
        } else {
            retries.remove(key);
        }
        return decision;
    }

    private Response answer(Decision decision, ErrorHandlerContext context, String topic, TopicKind kind,
                            SendErrorCategory category, Exception exception) {
        String error = exception.getClass().getName();
        switch (decision) {
            case RETRY -> {
                log.warn("Retrying the output to {} of input {} after {}", topic, input(context), error);
                return Response.retry();
            }
            case FAIL_INTERNAL_TOPIC -> log.error("Cannot write to {}, {} of this app ({}, {} error); failing, as"
                    + " it is never dead-lettered (the store or the next sub-topology would silently lose it). {}",
                    topic, kind == TopicKind.CHANGELOG ? "the changelog of a state store" : "a repartition topic",
                    error, category, internalTopicAdvice(kind));
            case FAIL_DEAD_LETTER_TOPIC -> log.error("Cannot write a dead letter to dead-letter topic {} ({}: {});"
                    + " failing rather than dropping it. Check {}: the topic must exist and accept the producer's"
                    + " writes", topic, error, exception.getMessage(),
                    StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
            default -> log.error("Cannot write the output to {} of input {}: {} error ({}), failing", topic,
                    input(context), category, error);
        }
        return Response.fail();
    }

    private Response deadLetter(ErrorHandlerContext context, ProducerRecord<?, ?> record, DeadLetter letter,
                                Exception exception) {
        String topic = record.topic();
        Integer partition = record.partition();
        Long timestamp = record.timestamp();
        if (deadLetters.isEmpty()) {
            log.error("Cannot write the output to {} of input {} ({}) and {} is not set: failing", topic,
                    input(context), exception.getClass().getName(),
                    StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
            return Response.fail();
        }
        letter.target(topic, partition).context(DeadLetterHeaders.APPLICATION_ID, app.config().applicationId());
        letter.timestamp(timestamp != null ? timestamp : context.timestamp());
        if (context.topic() != null) {
            letter.source(context.topic(), context.partition(), context.offset());
        }
        Optional<ProducerRecord<byte[], byte[]>> deadLetter = fit(letter, topic, context);
        if (deadLetter.isEmpty() || tripsBreaker(exception, topic, context)) {
            return Response.fail();
        }
        app.metrics().record(SendErrors.unwrap(exception));
        log.debug("Dead-lettered the output to {} of input {} to {}: {}", topic, input(context),
                deadLetter.get().topic(), exception.getClass().getName());
        return Response.resume(List.of(deadLetter.get()));
    }

    /** The dead letter within the limits of the app's producers, when known; empty when none fits. */
    private Optional<ProducerRecord<byte[], byte[]>> fit(DeadLetter letter, String topic, ErrorHandlerContext context) {
        DeadLetterRecordBuilder builder = deadLetters.orElseThrow();
        try {
            Optional<Integer> maxBytes = app.maxRecordBytes(builder.topic());
            return Optional.of(maxBytes.isPresent() ? builder.build(letter, maxBytes.get()) : builder.build(letter));
        } catch (KafkaException e) {
            log.error("Cannot dead-letter the output to {} of input {} to dead-letter topic {}: {}; failing", topic,
                    input(context), builder.topic(), e.toString());
            return Optional.empty();
        }
    }

    private boolean tripsBreaker(Exception exception, String topic, ErrorHandlerContext context) {
        String errorClass = ErrorClassMetrics.errorClass(exception);
        Optional<DeadLetterBreaker.Trip> tripped = app.breaker().flatMap(breaker -> breaker.deadLettered(errorClass));
        tripped.ifPresent(trip -> log.error("Failing instead of dead-lettering the output to {} of input {}: {}, more"
                + " than {} of them. That is not a few poison records: check the output topics and their settings, or"
                + " raise {} (1.0 turns this off)", topic, input(context), trip.describe("outputs"), trip.maxRatio(),
                DeadLetterHandlerConfig.DLQ_MAX_RATIO_CONFIG));
        return tripped.isPresent();
    }

    private static String internalTopicAdvice(TopicKind kind) {
        String limits = " and, for records larger than the producer's max.request.size, producer.max.request.size";
        return kind == TopicKind.CHANGELOG
                ? "Raise the changelog's max.message.bytes (Materialized.withLoggingEnabled(Map.of("
                        + "\"max.message.bytes\", ...)) or the topic's config)" + limits
                        + "; or keep the store's values smaller"
                : "Raise the topic's max.message.bytes (its topic config)" + limits + "; or keep the records smaller";
    }

    private static String input(ErrorHandlerContext context) {
        return context.topic() == null ? "(none: a punctuation or a store's changelog write)"
                : RecordPositions.of(context.topic(), context.partition(), context.offset());
    }
}
