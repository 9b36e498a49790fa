package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler.ProcessingHandlerResponse;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.LocalKafka;

/**
 * The failure the aggregation's changelog writes met in a loaded run, made by a real producer against a real broker:
 * its {@code commitTransaction} times out (the broker stopped with SIGSTOP past the producer's {@code max.block.ms}),
 * and its next {@code send} fails with the producer's own {@code IllegalStateException}. {@link RecordFaultsOnly}
 * must fail the stream thread on it, not skip the record (Kafka's {@code LogAndContinueProcessingExceptionHandler}
 * skipped it, and the dead letter was never counted). Its own broker: this one is stopped.
 */
class RecordFaultsOnlyIT {

    @Test
    @SuppressWarnings("deprecation") // handle, the method older Kafka Streams call (handleError delegates to it)
    void failsTheTaskWhenASendFollowsACommitThatTimedOut() {
        LocalKafka kafka = LocalKafka.create().start();
        try {
            kafka.createTopic("changelog", 1, Map.of());
            Properties props = kafka.clientProps();
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "record-faults-only-it");
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 2_000);
            Throwable afterTimeout;
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("changelog", new byte[] {1}));
                producer.flush();
                kafka.pause();
                try {
                    assertThat(catchThrowable(producer::commitTransaction)).as("the premise: the commit timed out")
                            .isInstanceOf(TimeoutException.class);
                    afterTimeout = catchThrowable(() -> producer.send(new ProducerRecord<>("changelog",
                            new byte[] {2})));
                } finally {
                    kafka.resume();
                }
                producer.close(Duration.ZERO);
            }

            assertThat(afterTimeout).as("the producer's own failure, a JDK type")
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("must be retried");
            assertThat(RecordFaultsOnly.causedByRecord(afterTimeout)).isFalse();
            assertThat(new RecordFaultsOnly().handle(RecordFaultsOnlyTest.at("orders-dlq", 0, 7), null,
                    (Exception) afterTimeout)).isEqualTo(ProcessingHandlerResponse.FAIL);
        } finally {
            kafka.close();
        }
    }
}
