package dev.quarantine.compat.connect;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.LocalKafka;

/** The test data: orders with poison records among them, and dead letters as Kafka Connect writes them. */
final class CompatRecords {

    static final int RECORDS = 200;

    private CompatRecords() {
    }

    /** {@value #RECORDS} orders; 4 of them poison for the copy (2 over 10,000 bytes, 2 two days old). */
    static void produceOrders(LocalKafka kafka, String topic) {
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka)) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] key = ("order-" + i).getBytes(StandardCharsets.UTF_8);
                byte[] value = ("{\"order\":" + i + "}").getBytes(StandardCharsets.UTF_8);
                if (i % 100 == 7) {
                    producer.send(new ProducerRecord<>(topic, null, key, new byte[20_000]));
                } else if (i % 100 == 57) {
                    producer.send(new ProducerRecord<>(topic, null, twoDaysAgo, key, value));
                } else {
                    producer.send(new ProducerRecord<>(topic, key, value));
                }
            }
        }
    }

    /** Dead letters as Kafka Connect writes them, with its context headers. */
    static void produceDeadLetters(LocalKafka kafka, String topic, int count) {
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka)) {
            for (int i = 0; i < count; i++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, new byte[] {1});
                header(record, "__connect.errors.topic", "orders");
                header(record, "__connect.errors.partition", "0");
                header(record, "__connect.errors.offset", String.valueOf(i));
                header(record, "__connect.errors.connector.name", "orders-sink");
                header(record, "__connect.errors.exception.class.name",
                        "org.apache.kafka.common.errors.RecordTooLargeException");
                producer.send(record);
            }
        }
    }

    static void header(ProducerRecord<byte[], byte[]> record, String name, String value) {
        record.headers().add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    static KafkaProducer<byte[], byte[]> producer(LocalKafka kafka) {
        return new KafkaProducer<>(kafka.clientProps(), new ByteArraySerializer(), new ByteArraySerializer());
    }
}
