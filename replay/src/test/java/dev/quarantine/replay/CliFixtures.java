package dev.quarantine.replay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.txn.DeadLetterHeaders;

/** Dead-letter topics for the command-line tests, which live in another package. */
public final class CliFixtures {

    private CliFixtures() {
    }

    /**
     * A dead-letter topic {@code <prefix>-dlq} with three dead letters as Kafka Connect's own DeadLetterQueueReporter
     * writes them (only {@code __connect.errors.*} headers) for input topic {@code <prefix>-input}, partition 1.
     */
    public static String stockConnectDlq(LocalKafka kafka, String prefix) {
        String dlq = prefix + "-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(prefix + "-input", 2, Map.of());
        for (int i = 0; i < 3; i++) {
            rawLetter(kafka, dlq, prefix + "-" + i, "value-" + i, header(DeadLetterHeaders.CONNECT_TOPIC,
                    prefix + "-input"), header(DeadLetterHeaders.CONNECT_PARTITION, "1"),
                    header(DeadLetterHeaders.CONNECT_OFFSET, String.valueOf(i)),
                    header(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "file-sink"),
                    header(DeadLetterHeaders.CONNECT_EXCEPTION, RecordTooLargeException.class.getName()));
        }
        return dlq;
    }

    /**
     * A dead-letter topic {@code <prefix>-dlq} with {@code count} dead letters in our sink's format for output topic
     * {@code <prefix>-output}, which accepts them (the cause is fixed).
     */
    public static String sinkDlq(LocalKafka kafka, String prefix, int count, IntFunction<Throwable> errors) {
        String dlq = prefix + "-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(prefix + "-output", 1, Map.of());
        DeadLetterFixtures.connectLetters(kafka, dlq, prefix + "-input", prefix + "-output", prefix, count, errors,
                prefix + "-copy");
        return dlq;
    }

    public static void rawLetter(LocalKafka kafka, String dlq, String key, String value, Header... headers) {
        DeadLetterFixtures.rawLetter(kafka, dlq, key, value, headers);
    }

    /** The latest committed progress of {@code replayId} in the default progress topic. */
    public static Optional<ReplayProgress> progress(LocalKafka kafka, String replayId) {
        try (ReplayProgressReader reader = new ReplayProgressReader(Map.of("bootstrap.servers",
                kafka.bootstrapServers()), ReplayConfig.PROGRESS_TOPIC_DEFAULT, Duration.ofSeconds(60))) {
            return reader.latest(replayId);
        }
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
