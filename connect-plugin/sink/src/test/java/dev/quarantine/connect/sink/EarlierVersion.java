package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.bytes;

import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.LocalKafka;

/**
 * Writes a batch as versions before the progress record did: records {@code from..to-1} of a source partition
 * ({@code "k<n>"} / {@code "v<n>"}) to the target partition 0 in one transaction of the partition's transactional id,
 * with its progress committed by {@code sendOffsetsToTransaction} as the offset of the group of that id for
 * partition 0 of {@code progressTopic}.
 */
final class EarlierVersion {

    private EarlierVersion() {
    }

    @SuppressWarnings("deprecation") // new ConsumerGroupMetadata(String) is what those versions called
    static void writeBatch(LocalKafka kafka, String transactionalId, String target, String progressTopic, long from,
                           long to) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (long offset = from; offset < to; offset++) {
                producer.send(new ProducerRecord<>(target, 0, bytes("k" + offset), bytes("v" + offset)));
            }
            producer.sendOffsetsToTransaction(Map.of(new TopicPartition(progressTopic, 0),
                    new OffsetAndMetadata(to, "source=earlier")), new ConsumerGroupMetadata(transactionalId));
            producer.commitTransaction();
        }
    }
}
