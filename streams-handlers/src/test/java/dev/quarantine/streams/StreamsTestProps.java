package dev.quarantine.streams;

import java.nio.file.Path;
import java.util.Properties;

import org.apache.kafka.streams.StreamsConfig;

import dev.quarantine.sandbox.LocalKafka;

/**
 * The properties of a Kafka Streams app under test on the sandbox broker: exactly_once_v2, a commit every 100 ms, a
 * short consumer session (a restarted or replaced member is noticed in seconds), input read from the start, and
 * Kafka's own dead-letter topic setting. Public for the replay module's tests, through this module's test-jar.
 */
public final class StreamsTestProps {

    private StreamsTestProps() {
    }

    /** Stock Kafka Streams: no supplier or handler of ours. */
    public static Properties exactlyOnce(LocalKafka kafka, String applicationId, Path stateDir, String deadLetters) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, deadLetters);
        props.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 6000);
        props.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 1000);
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        return props;
    }

    /** {@link #exactlyOnce} with {@link IgnoreSendErrorsClientSupplier} and {@link DeadLetterProductionExceptionHandler}. */
    public static Properties quarantined(LocalKafka kafka, String applicationId, Path stateDir, String deadLetters) {
        Properties props = exactlyOnce(kafka, applicationId, stateDir, deadLetters);
        props.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, IgnoreSendErrorsClientSupplier.class.getName());
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterProductionExceptionHandler.class.getName());
        return props;
    }
}
