package dev.quarantine.connect.sink;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A source partition's progress as a record of the progress topic, written in the transaction whose output it
 * follows. The key is the partition's transactional id (UTF-8), so compaction keeps the last record of each
 * partition; the value is {@code key=value} lines, readable with {@code kafka-console-consumer}, for example
 *
 * <pre>
 * format=1
 * next=1043
 * source=orders-3
 * topic.id=Q2xvdWRlUHJvZ3Jlc3MxMg
 * </pre>
 *
 * <p>{@code next} is the next source offset to write; {@code topic.id} the id of the progress topic the writer
 * knew, so a record that landed in a topic created again under a running writer (a broker with
 * auto.create.topics.enable=true re-creates a deleted topic at the first send) is recognised when it is read.
 * Readers reject a format they do not know rather than guess.
 */
record ProgressRecord(long next, Uuid topicId) {

    static final int FORMAT = 1;

    /** The record of {@code transactionalId}'s progress, for partition 0 of the progress topic. */
    ProducerRecord<byte[], byte[]> toRecord(TopicPartition progressPartition, String transactionalId,
                                            TopicPartition source) {
        String value = "format=" + FORMAT + "\nnext=" + next + "\nsource=" + source + "\ntopic.id=" + topicId
                + "\n";
        return new ProducerRecord<>(progressPartition.topic(), progressPartition.partition(),
                transactionalId.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException when {@code value} is not a progress record of a format this reads */
    static ProgressRecord parse(byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("a record without a value");
        }
        Properties lines = new Properties();
        try {
            lines.load(new StringReader(new String(value, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String format = lines.getProperty("format");
        if (!String.valueOf(FORMAT).equals(format)) {
            throw new IllegalArgumentException("format " + format + ", while this version reads format " + FORMAT
                    + " (written by a newer version?)");
        }
        try {
            return new ProgressRecord(Long.parseLong(required(lines, "next")),
                    Uuid.fromString(required(lines, "topic.id")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("format " + FORMAT + " but " + e.getMessage(), e);
        }
    }

    private static String required(Properties lines, String key) {
        String value = lines.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException(key + " is missing");
        }
        return value;
    }
}
