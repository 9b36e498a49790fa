package dev.quarantine.streams;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.quarantine.txn.ErrorClassMetrics;

/**
 * Counts of dead-lettered records by error class, one registry per Streams {@code application.id} in this JVM: over
 * JMX as {@code kafka.streams:type=quarantine-dead-letter-metrics,application-id=...,error-class=...}
 * ({@code dead-letter-records-total}, {@code dead-letter-records-rate}), and in {@code KafkaStreams#metrics()}
 * through the producers of {@link IgnoreSendErrorsClientSupplier}. Shared by the handler and the supplier, which
 * Kafka Streams configures separately.
 */
final class DeadLetterMetrics {

    static final String GROUP = "quarantine-dead-letter-metrics";
    private static final Map<String, ErrorClassMetrics> BY_APPLICATION = new ConcurrentHashMap<>();

    private DeadLetterMetrics() {
    }

    static ErrorClassMetrics of(String applicationId) {
        return BY_APPLICATION.computeIfAbsent(applicationId, id -> new ErrorClassMetrics("kafka.streams", GROUP,
                "dead-letter-records", "Output records written to the dead-letter topic instead of their topic",
                Map.of("application-id", id)));
    }
}
