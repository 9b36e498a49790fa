package dev.quarantine.streams;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.ErrorClassMetrics;
import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterRecordBuilder;
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
 * <table>
 * <caption>Answers, by the error's {@link SendErrors} category</caption>
 * <tr><th>category</th><th>answer</th></tr>
 * <tr><td>RECORD (too large, rejected by its topic, unserializable)</td><td>RESUME with a dead letter</td></tr>
 * <tr><td>RETRIABLE</td><td>RETRY, up to {@code quarantine.production.retries} times for the same input record;
 *     then RESUME with a dead letter</td></tr>
 * <tr><td>ABORTABLE, FATAL, or a dead letter that itself failed</td><td>FAIL</td></tr>
 * <tr><td>any, when no dead-letter topic is set</td><td>FAIL (nothing is dropped silently)</td></tr>
 * </table>
 *
 * <p>The dead letter holds the failing output record's key and value (truncated to
 * {@code quarantine.dlq.payload.max.bytes} when too large) and headers; Kafka Streams' {@code __streams.errors.*}
 * headers with the input record's topic, partition and offset and the exception; ours ({@code __quarantine.*}) with
 * the output topic, the output's size and the error category; and, where Kafka provides them, the input record's raw
 * key and value in {@code __quarantine.source.raw.key} / {@code __quarantine.source.raw.value} (Kafka passes none on
 * the production-error path, only for serialization errors).
 */
public class DeadLetterProductionExceptionHandler implements ProductionExceptionHandler {

    /** Header with the input record's raw key, when Kafka Streams provides it. */
    public static final String SOURCE_RAW_KEY_HEADER = "__quarantine.source.raw.key";
    /** Header with the input record's raw value, when Kafka Streams provides it. */
    public static final String SOURCE_RAW_VALUE_HEADER = "__quarantine.source.raw.value";

    private static final Logger log = LoggerFactory.getLogger(DeadLetterProductionExceptionHandler.class);
    private static final int MAX_TRACKED_RETRIES = 10_000;

    private Optional<DeadLetterRecordBuilder> deadLetters = Optional.empty();
    private int maxRetries;
    private ErrorClassMetrics metrics;
    private final Map<String, Integer> retries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > MAX_TRACKED_RETRIES;
        }
    };

    @Override
    public void configure(Map<String, ?> configs) {
        DeadLetterHandlerConfig config = new DeadLetterHandlerConfig(configs);
        maxRetries = config.productionRetries();
        metrics = DeadLetterMetrics.of(config.applicationId());
        deadLetters = config.deadLetterTopic().map(topic -> new DeadLetterRecordBuilder(topic,
                DeadLetterRecordBuilder.HeaderStyle.STREAMS, config.payloadMaxBytes()));
        if (deadLetters.isEmpty()) {
            log.warn("{} is not set: an output record that cannot be written will stop the task (FAIL). Set it to"
                    + " write such records to a dead-letter topic and go on.",
                    StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        } else {
            log.info("Output records that cannot be written go to dead-letter topic {}", deadLetters.get().topic());
        }
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
                                Exception exception) {
        SendErrorCategory category = SendErrors.classify(record, exception);
        if (category == SendErrorCategory.RETRIABLE && retry(context, record)) {
            log.warn("Retrying the output to {} of input {} after {}", record.topic(), input(context),
                    exception.getClass().getName());
            return Response.retry();
        }
        if (category == SendErrorCategory.RECORD || category == SendErrorCategory.RETRIABLE) {
            return deadLetter(context, record.topic(), record.partition(), record.key(), record.value(),
                    record.headers().toArray(), exception);
        }
        log.error("Cannot write the output to {} of input {}: {} error, failing", record.topic(), input(context),
                category, exception);
        return Response.fail();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        return deadLetter(context, record.topic(), record.partition(), context.sourceRawKey(),
                context.sourceRawValue(), record.headers().toArray(), exception);
    }

    private Response deadLetter(ErrorHandlerContext context, String topic, Integer partition, byte[] key,
                                byte[] value, Header[] headers, Exception exception) {
        if (deadLetters.isEmpty()) {
            log.error("Cannot write the output to {} of input {} and {} is not set: failing", topic, input(context),
                    StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, exception);
            return Response.fail();
        }
        DeadLetter letter = DeadLetter.of(key, value, withSourceRaw(headers, context), exception)
                .target(topic, partition);
        if (context.topic() != null) {
            letter.source(context.topic(), context.partition(), context.offset());
        }
        ProducerRecord<byte[], byte[]> deadLetter = deadLetters.get().build(letter);
        metrics.record(SendErrors.unwrap(exception));
        log.debug("Dead-lettered the output to {} of input {} to {}: {}", topic, input(context), deadLetter.topic(),
                exception.getClass().getName());
        return Response.resume(List.of(deadLetter));
    }

    private synchronized boolean retry(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record) {
        String key = context.taskId() + "/" + input(context) + "/" + record.topic();
        int tries = retries.merge(key, 1, Integer::sum);
        if (tries > maxRetries) {
            retries.remove(key);
            return false;
        }
        return true;
    }

    private static Header[] withSourceRaw(Header[] headers, ErrorHandlerContext context) {
        if (context.sourceRawKey() == null && context.sourceRawValue() == null) {
            return headers;
        }
        List<Header> all = new ArrayList<>(List.of(headers));
        if (context.sourceRawKey() != null) {
            all.add(new RecordHeader(SOURCE_RAW_KEY_HEADER, context.sourceRawKey()));
        }
        if (context.sourceRawValue() != null) {
            all.add(new RecordHeader(SOURCE_RAW_VALUE_HEADER, context.sourceRawValue()));
        }
        return all.toArray(new Header[0]);
    }

    private static String input(ErrorHandlerContext context) {
        return context.topic() == null ? "(punctuation)" : context.topic() + "-" + context.partition() + "@"
                + context.offset();
    }

}
