package dev.quarantine.streams;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;

/**
 * What a user writes on stock Kafka 4.4 to skip an output it cannot write: RESUME, with the dead-letter records
 * Kafka itself builds from {@code errors.dead.letter.queue.topic.name} (test only; uses Kafka's own builder).
 */
public class ResumeHandler implements ProductionExceptionHandler {

    private String deadLetterTopic;

    @Override
    public void configure(Map<String, ?> configs) {
        deadLetterTopic = (String) configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
                                Exception exception) {
        return Response.resume(ExceptionHandlerUtils.maybeBuildDeadLetterQueueRecords(deadLetterTopic,
                context.sourceRawKey(), context.sourceRawValue(), context, exception));
    }
}
