package dev.quarantine.connect.rest.aggregation;

import java.util.Map;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.rest.http.Causes;
import dev.quarantine.txn.RecordPositions;

/**
 * The aggregation's processing exception handler: a failure that a dead letter's content caused in our processor
 * (a {@link RecordFault} among the causes) skips that record, logged by its position, never its key or value, rather
 * than a thread replaced again and again by the same record; so do bytes that do not decode (a
 * {@code SerializationException} among the causes: a store value of another release, {@link Codec}'s refusal), which
 * fail the same way on every attempt. Anything else fails the stream thread, which Kafka Streams replaces: the new one
 * reads the records after the last committed offsets again, so nothing is skipped.
 *
 * <p>Kafka's {@code LogAndContinueProcessingExceptionHandler} skipped everything: after a {@code commitTransaction}
 * that timed out (a coordinator slower than the producer's {@code max.block.ms}), Kafka Streams went on processing,
 * every store write's changelog send failed with "the previous call to {@code commitTransaction} timed out and must be
 * retried" (a plain {@code IllegalStateException}), and each such dead letter was skipped, then committed as read:
 * counted never, for good (seen in a loaded test run: 360 letters of nine topics in one second). Telling Kafka's
 * failures from a record's by where they were thrown misses those thrown through the JDK's helpers or with no stack
 * trace (the JIT's fast throw), so the processor marks its own instead.
 *
 * <p>{@link #handle} is the method older Kafka Streams call and 4.4's {@code handleError} delegates to, so one class
 * serves every worker the monitor runs on.
 */
public final class RecordFaultsOnly implements ProcessingExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(RecordFaultsOnly.class);

    /** Whether {@code error} is a record's: a {@link RecordFault} or a {@link SerializationException} among causes. */
    static boolean causedByRecord(Throwable error) {
        return Causes.of(error).stream()
                .anyMatch(cause -> cause instanceof RecordFault || cause instanceof SerializationException);
    }

    @Override
    @SuppressWarnings("deprecation") // the method of older Kafka Streams, where handleError does not exist yet
    public ProcessingHandlerResponse handle(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        String position = RecordPositions.of(context.topic(), context.partition(), context.offset());
        if (!causedByRecord(exception)) {
            log.warn("Dead-letter monitor: the aggregation failed while it processed {} ({}): failing the stream "
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
