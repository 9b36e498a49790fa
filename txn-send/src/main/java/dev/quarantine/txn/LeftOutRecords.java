package dev.quarantine.txn;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a record the {@link RecordGate} keeps out: it is counted in {@code txn-send-metrics}
 * ({@code records-skipped-total/-rate} by error class), its callback completes with the error, and its future is
 * failed with it. Logs the record's topic-partition only, never its key or value.
 */
final class LeftOutRecords implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeftOutRecords.class);

    private final ErrorClassMetrics metrics;

    LeftOutRecords(String clientId) {
        this.metrics = new ErrorClassMetrics("kafka.producer", "txn-send-metrics", "records-skipped",
                "Records left out of their transaction because they could not be sent", Map.of("client-id", clientId));
    }

    Future<RecordMetadata> leaveOut(ProducerRecord<?, ?> record, Callback callback, RuntimeException error) {
        metrics.record(error);
        TopicPartition tp = new TopicPartition(record.topic(),
                record.partition() == null ? RecordMetadata.UNKNOWN_PARTITION : record.partition());
        log.debug("Left a record to {} out of the transaction: {}", tp, error.getClass().getName());
        if (callback != null) {
            try {
                callback.onCompletion(new RecordMetadata(tp, -1, -1, -1, -1, -1), error);
            } catch (RuntimeException callbackError) {
                log.error("The callback of a record to {} threw", tp, callbackError);
            }
        }
        return CompletableFuture.failedFuture(error);
    }

    ErrorClassMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        metrics.close();
    }
}
