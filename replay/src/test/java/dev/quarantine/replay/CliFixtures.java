package dev.quarantine.replay;

import static dev.quarantine.sandbox.Utf8.bytes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

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
        return sinkDlq(kafka, prefix, 1, count, errors);
    }

    /** {@link #sinkDlq(LocalKafka, String, int, IntFunction)} with {@code partitions} partitions. */
    public static String sinkDlq(LocalKafka kafka, String prefix, int partitions, int count,
                                 IntFunction<Throwable> errors) {
        String dlq = prefix + "-dlq";
        kafka.createTopic(dlq, partitions, Map.of());
        kafka.createTopic(prefix + "-output", 1, Map.of());
        DeadLetterFixtures.connectLetters(kafka, dlq, prefix + "-input", prefix + "-output", prefix, count, errors,
                prefix + "-copy");
        return dlq;
    }

    /**
     * A dead-letter topic {@code <prefix>-dlq} with {@code count} dead letters in our sink's header names, in one
     * partition, one after another: the even offsets (keys {@code good-<i>}) for output topic {@code <prefix>-output},
     * the odd ones (keys {@code forged-<i>}) naming {@code __consumer_offsets}, which a replay refuses. A replay of it
     * writes every second dead letter: one written range each.
     */
    public static String everySecondRefusedDlq(LocalKafka kafka, String prefix, int count) throws Exception {
        String dlq = prefix + "-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        kafka.createTopic(prefix + "-output", 1, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                boolean good = i % 2 == 0;
                sent.add(producer.send(new ProducerRecord<>(dlq, null, null,
                        bytes((good ? "good-" : "forged-") + i), bytes("value-" + i), List.of(
                        header(DeadLetterHeaders.CONNECT_TOPIC, prefix + "-input"),
                        header(DeadLetterHeaders.CONNECT_EXCEPTION, RecordTooLargeException.class.getName()),
                        header(DeadLetterHeaders.TARGET_TOPIC, good ? prefix + "-output" : "__consumer_offsets"),
                        ourCategory()))));
            }
            for (Future<RecordMetadata> result : sent) {
                result.get(30, TimeUnit.SECONDS);
            }
        }
        return dlq;
    }

    /**
     * {@code __quarantine.error.category}, which our writers write after every other header of a dead letter: a
     * fixture's {@code __quarantine.*} headers are read as ours only when it comes after them (the reader's rule).
     */
    public static Header ourCategory() {
        return header(DeadLetterHeaders.ERROR_CATEGORY, "RECORD");
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
        return new RecordHeader(name, bytes(value));
    }
}
