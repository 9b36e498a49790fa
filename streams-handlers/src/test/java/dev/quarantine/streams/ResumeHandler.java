package dev.quarantine.streams;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;

/**
 * What a user writes on stock Kafka 4.4 to skip an output it cannot write: RESUME, with the dead-letter records
 * Kafka itself builds from {@code errors.dead.letter.queue.topic.name} (test only; uses Kafka's own builder).
 * Every error it is handed is recorded per application, so a test can see the same poison handed to it again.
 */
public class ResumeHandler implements ProductionExceptionHandler {

    /** An error handed to the handler: the input record it came from and the exception. */
    record Handled(String source, Exception exception) {
    }

    private static final Map<String, List<Handled>> HANDLED = new ConcurrentHashMap<>();

    private String deadLetterTopic;
    private List<Handled> handled;

    /** The errors handed to the handlers of {@code applicationId}, oldest first. */
    static List<Handled> handled(String applicationId) {
        return HANDLED.getOrDefault(applicationId, List.of());
    }

    @Override
    public void configure(Map<String, ?> configs) {
        deadLetterTopic = (String) configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        handled = HANDLED.computeIfAbsent((String) configs.get(StreamsConfig.APPLICATION_ID_CONFIG),
                id -> new CopyOnWriteArrayList<>());
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
                                Exception exception) {
        handled.add(new Handled(context.topic() + "-" + context.partition() + "@" + context.offset(), exception));
        return Response.resume(ExceptionHandlerUtils.maybeBuildDeadLetterQueueRecords(deadLetterTopic,
                context.sourceRawKey(), context.sourceRawValue(), context, exception));
    }
}
