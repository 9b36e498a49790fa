package dev.quarantine.connect.sink;

import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.TargetTopics;
import dev.quarantine.connect.sink.config.PartitionMapping;
import dev.quarantine.connect.sink.config.TargetTopicSettings;
import dev.quarantine.connect.sink.config.TopicFormat;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/** Shared helpers for building test records and reading what landed. */
public final class TestData {

    private TestData() {
    }

    /** {@code props("k", "v", ...)}. */
    public static Map<String, String> props(String... keysAndValues) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    /** Target topics none of which was ever resolved: every record keeps its partition; nothing is contacted. */
    public static TargetTopics targetTopicsNeverSeen() {
        return new TargetTopics(new TopicFormat("${topic}"), new TargetTopicSettings(false, Optional.empty(),
                Optional.empty(), Map.of(), PartitionMapping.HASH), new ClusterAdmins(Map.of(), Map.of()),
                Duration.ofSeconds(1));
    }

    /** A sink record as ByteArrayConverter delivers it, with a header {@code id}. */
    public static SinkRecord sinkRecord(String topic, int partition, long offset, String key, byte[] value,
            Long timestamp) {
        ConnectHeaders headers = new ConnectHeaders();
        headers.add("id", bytes(String.valueOf(offset)), Schema.OPTIONAL_BYTES_SCHEMA);
        return new SinkRecord(topic, partition, Schema.OPTIONAL_BYTES_SCHEMA, bytes(key), Schema.OPTIONAL_BYTES_SCHEMA,
                value, offset, timestamp, TimestampType.CREATE_TIME, headers);
    }

    public static List<SinkRecord> records(String topic, int partition, long from, long to) {
        List<SinkRecord> records = new ArrayList<>();
        for (long offset = from; offset < to; offset++) {
            records.add(sinkRecord(topic, partition, offset, "k" + offset, bytes("v" + offset),
                    System.currentTimeMillis()));
        }
        return records;
    }

    static List<ConsumerRecord<byte[], byte[]>> committed(LocalKafka kafka, String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(30));
    }

    static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> text(r.value())).toList();
    }

    static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : text(header.value());
    }
}
