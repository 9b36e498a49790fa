package dev.quarantine.connect.rest.aggregation;

import java.util.List;
import java.util.Map;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.rest.http.Causes;
import dev.quarantine.txn.RecordPositions;

/**
 * The aggregation's processing exception handler: a failure that a dead letter's content caused in our processor skips
 * that record (logged by its position, never its key or value), rather than a thread replaced again and again by the
 * same record; a failure of Kafka's clients or of Kafka Streams fails the stream thread, which Kafka Streams replaces:
 * the new one reads the records after the last committed offsets again, so nothing is skipped. Kafka's
 * {@code LogAndContinueProcessingExceptionHandler} skipped both: after a {@code commitTransaction} that timed out (a
 * coordinator slower than the producer's {@code max.block.ms}), Kafka Streams went on processing, every store write's
 * changelog send failed with "the previous call to {@code commitTransaction} timed out and must be retried", and each
 * such dead letter was skipped, then committed as read: counted never, for good (seen in a loaded test run: 360 letters
 * of nine topics in one second).
 *
 * <p>{@link #handle} is the method older Kafka Streams call and 4.4's {@code handleError} delegates to, so one class
 * serves every worker the monitor runs on. A {@code SerializationException} counts as data, not Kafka: bytes that do
 * not decode fail the same way on every attempt.
 */
public final class RecordFaultsOnly implements ProcessingExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(RecordFaultsOnly.class);

    /** Where a failure thrown from comes from Kafka, not from a record: its clients and Kafka Streams. */
    private static final List<String> KAFKA_PACKAGES =
            List.of("org.apache.kafka.clients.", "org.apache.kafka.streams.");

    /**
     * Whether {@code error} comes from Kafka rather than from a record: a {@link KafkaException} among its causes, or a
     * cause thrown by Kafka's clients or Kafka Streams (the producer's {@code IllegalStateException} of a transaction
     * it cannot go on with is a plain JDK type, thrown from {@code org.apache.kafka.clients}).
     */
    static boolean fromKafka(Throwable error) {
        List<Throwable> chain = Causes.of(error);
        if (chain.stream().anyMatch(SerializationException.class::isInstance)) {
            // bytes that do not decode (a store value of another release, Codec's own refusal), however wrapped:
            // data, not Kafka; failing would replace the thread on the same bytes for ever
            return false;
        }
        for (Throwable cause : chain) {
            if (cause instanceof KafkaException) {
                return true;
            }
            StackTraceElement[] frames = cause.getStackTrace();
            if (frames.length > 0 && KAFKA_PACKAGES.stream().anyMatch(frames[0].getClassName()::startsWith)) {
                return true;
            }
        }
        return false;
    }

    @Override
    @SuppressWarnings("deprecation") // the method of older Kafka Streams, where handleError does not exist yet
    public ProcessingHandlerResponse handle(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        String position = RecordPositions.of(context.topic(), context.partition(), context.offset());
        if (fromKafka(exception)) {
            log.warn("Dead-letter monitor: Kafka failed while the aggregation processed {} ({}): failing the stream "
                    + "thread, so that nothing is skipped: a new one reads the records after the last commit again",
                    position, exception.toString());
            return ProcessingHandlerResponse.FAIL;
        }
        log.warn("Dead-letter monitor: skipping the dead letter at {}, which failed the aggregation's processor",
                position, exception);
        return ProcessingHandlerResponse.CONTINUE;
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }
}
