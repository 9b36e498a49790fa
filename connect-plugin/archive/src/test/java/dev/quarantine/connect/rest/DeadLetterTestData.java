package dev.quarantine.connect.rest;

import static dev.quarantine.sandbox.Utf8.bytes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TextHeaders;
import dev.quarantine.txn.DeadLetterHeaders;

/** Dead letters written straight to a topic for the monitor's integration tests; values say "secret-payload". */
final class DeadLetterTestData {

    private DeadLetterTestData() {
    }

    /** {@code count} records with Kafka Streams' exception header {@code errorClass}. */
    static void produce(LocalKafka kafka, String topic, int count, String errorClass) throws Exception {
        produce(kafka, topic, count, i -> null, errorClass);
    }

    /** {@code perPartition} records in each of {@code partitions}, with Kafka Streams' exception header. */
    static void produceToEachPartition(LocalKafka kafka, String topic, int partitions, int perPartition,
                                       String errorClass) throws Exception {
        produce(kafka, topic, partitions * perPartition, i -> i % partitions, errorClass);
    }

    private static void produce(LocalKafka kafka, String topic, int count, IntFunction<Integer> partition,
                                String errorClass) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add(DeadLetterHeaders.STREAMS_EXCEPTION, bytes(errorClass));
                producer.send(new ProducerRecord<>(topic, partition.apply(i), null, bytes("k"),
                        bytes("secret-payload"), headers)).get();
            }
        }
    }

    /**
     * Nine records anyone with write access could shape: three with every header far over 64 KB (error class
     * {@code Hxxx...}), two whose error class is not UTF-8, two with one header twenty times (the last says
     * {@code D}), one without headers, one after them all ({@code org.example.After}).
     */
    static void produceHostile(LocalKafka kafka, String topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            List<RecordHeaders> hostile = new ArrayList<>();
            for (int size : new int[] {70_000, 100_000, 131_072}) { // each header over writeUTF's 64 KB
                String big = "x".repeat(size);
                hostile.add(TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, "H" + big,
                        DeadLetterHeaders.CONNECT_TOPIC, big, DeadLetterHeaders.CONNECT_CONNECTOR_NAME, big,
                        DeadLetterHeaders.CONNECT_TASK_ID, big, DeadLetterHeaders.CONNECT_STAGE, big,
                        DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, big));
            }
            for (int i = 0; i < 2; i++) {
                RecordHeaders notUtf8 = new RecordHeaders();
                notUtf8.add(DeadLetterHeaders.CONNECT_EXCEPTION, new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF});
                hostile.add(notUtf8);
                RecordHeaders repeated = new RecordHeaders();
                for (int h = 0; h < 20; h++) {
                    repeated.add(DeadLetterHeaders.STREAMS_EXCEPTION, bytes(h < 19 ? "D" + h : "D"));
                }
                hostile.add(repeated);
            }
            hostile.add(new RecordHeaders());
            hostile.add(TextHeaders.of(DeadLetterHeaders.STREAMS_EXCEPTION, "org.example.After"));
            for (int i = 0; i < hostile.size(); i++) {
                producer.send(new ProducerRecord<>(topic, i % 2, null, bytes("secret-payload-key"),
                        bytes("secret-payload-" + i), hostile.get(i))).get();
            }
        }
    }

    /** An error class that would run a script if it were parsed as HTML. */
    static final String SCRIPT = "<script>window.__pwned = 'script'; document.title = 'pwned'</script>";
    /** An attribute breakout with an image whose error handler would run. */
    static final String IMAGE = "\"><img src=x onerror=\"window.__pwned = 'img'; document.title = 'pwned'\">";

    /**
     * Three records with Kafka Connect's headers whose error class is {@link #SCRIPT} and whose original topic,
     * connector, stage, error message and value are {@link #IMAGE} (or both), from original partition 0, offsets 5 to
     * 7.
     */
    static void produceScripted(LocalKafka kafka, String topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(topic, null, null, bytes("k"), bytes(IMAGE), TextHeaders.of(
                        DeadLetterHeaders.CONNECT_EXCEPTION, SCRIPT, DeadLetterHeaders.CONNECT_TOPIC, IMAGE,
                        DeadLetterHeaders.CONNECT_PARTITION, "0", DeadLetterHeaders.CONNECT_OFFSET, String.valueOf(5 + i),
                        DeadLetterHeaders.CONNECT_CONNECTOR_NAME, IMAGE, DeadLetterHeaders.CONNECT_TASK_ID, "0",
                        DeadLetterHeaders.CONNECT_STAGE, SCRIPT, DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE,
                        SCRIPT + IMAGE))).get();
            }
        }
    }
}
