package dev.quarantine.benchmarks;

import static dev.quarantine.sandbox.Utf8.bytes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * The dead-letter topics the monitor reads in the benchmark: one with Kafka Connect's {@code __connect.errors.*}
 * headers, one with Kafka Streams' {@code __streams.errors.*} headers, one without headers, each with
 * {@link #PARTITIONS} partitions (so the aggregation has that many tasks to split between two workers).
 */
final class DeadLetterRestData {

    static final int PARTITIONS = 3;
    static final String CONNECT_DLQ = "bench-connect-dlq";
    static final String STREAMS_DLQ = "bench-streams-dlq";
    static final String PLAIN_DLQ = "bench-plain-dlq";
    private static final String[] ERRORS = {
        "org.apache.kafka.common.errors.RecordTooLargeException",
        "org.apache.kafka.connect.errors.DataException",
        "org.apache.kafka.common.errors.InvalidTimestampException"};

    private DeadLetterRestData() {
    }

    /** Creates the topics and writes the dead letters; returns how many each topic holds. */
    static Map<String, Long> write(LocalKafka kafka, int connect, int streams, int plain) {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put(CONNECT_DLQ, (long) connect);
        expected.put(STREAMS_DLQ, (long) streams);
        expected.put(PLAIN_DLQ, (long) plain);
        expected.keySet().forEach(topic -> kafka.createTopic(topic, PARTITIONS, Map.of()));
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < connect; i++) {
                producer.send(new ProducerRecord<>(CONNECT_DLQ, i % PARTITIONS, null, bytes("k" + i), value(i),
                        connectHeaders(i)));
            }
            for (int i = 0; i < streams; i++) {
                producer.send(new ProducerRecord<>(STREAMS_DLQ, i % PARTITIONS, null, bytes("k" + i), value(i),
                        streamsHeaders(i)));
            }
            for (int i = 0; i < plain; i++) {
                producer.send(new ProducerRecord<>(PLAIN_DLQ, i % PARTITIONS, bytes("k" + i), value(i)));
            }
            producer.flush();
        }
        return expected;
    }

    private static RecordHeaders connectHeaders(int i) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(DeadLetterHeaders.CONNECT_TOPIC, bytes("orders-" + i % 4));
        headers.add(DeadLetterHeaders.CONNECT_PARTITION, bytes(String.valueOf(i % 6)));
        headers.add(DeadLetterHeaders.CONNECT_OFFSET, bytes(String.valueOf(1000 + i)));
        headers.add(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, bytes("orders-copy-" + i % 2));
        headers.add(DeadLetterHeaders.CONNECT_TASK_ID, bytes(String.valueOf(i % 3)));
        headers.add(DeadLetterHeaders.CONNECT_STAGE, bytes("VALUE_CONVERTER"));
        headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, bytes(ERRORS[i % ERRORS.length]));
        headers.add(DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, bytes("record " + i + " was rejected"));
        return headers;
    }

    private static RecordHeaders streamsHeaders(int i) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(DeadLetterHeaders.STREAMS_EXCEPTION, bytes(ERRORS[i % ERRORS.length]));
        headers.add(DeadLetterHeaders.STREAMS_EXCEPTION_MESSAGE, bytes("output " + i + " was rejected"));
        headers.add(DeadLetterHeaders.STREAMS_TOPIC, bytes("payments-" + i % 3));
        headers.add(DeadLetterHeaders.STREAMS_PARTITION, bytes(String.valueOf(i % 4)));
        headers.add(DeadLetterHeaders.STREAMS_OFFSET, bytes(String.valueOf(500 + i)));
        return headers;
    }

    private static byte[] value(int i) {
        return bytes(("{\"order\":" + i + ",\"note\":\"" + "x".repeat(150) + "\"}"));
    }
}
