package dev.quarantine.streams;

import static dev.quarantine.streams.RunningApp.committed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/** The supplier's transactional producer against a real broker, used as Kafka Streams uses it. */
@ExtendWith(LocalKafkaExtension.class)
class IgnoreSendErrorsClientSupplierIT {

    @Test
    void leavesAPoisonOutputOutButNeverAChangelogRecord(LocalKafka kafka) {
        kafka.createTopic("supplier-app-store-changelog", 1, Map.of("max.message.bytes", "2000"));
        kafka.createTopic("supplier-output", 1, Map.of("max.message.bytes", "2000"));
        List<Exception> failures = new CopyOnWriteArrayList<>();
        Callback recordFailure = (metadata, error) -> {
            if (error != null) {
                failures.add(error);
            }
        };

        try (Producer<byte[], byte[]> producer = producer(kafka)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("supplier-output", new byte[5000]), recordFailure);
            producer.send(new ProducerRecord<>("supplier-output", "good".getBytes()), recordFailure);
            producer.commitTransaction();
            assertThat(failures).singleElement().isInstanceOf(RecordTooLargeException.class);

            producer.beginTransaction();
            producer.send(new ProducerRecord<>("supplier-app-store-changelog", "k".getBytes(), new byte[5000]),
                    recordFailure);
            producer.send(new ProducerRecord<>("supplier-output", "after".getBytes()), recordFailure);
            assertThatThrownBy(producer::commitTransaction).as("a transaction without its changelog record")
                    .isInstanceOf(KafkaException.class);
        }

        assertThat(committed(kafka, "supplier-output")).as("the good output of the first transaction only")
                .hasSize(1);
        assertThat(committed(kafka, "supplier-app-store-changelog")).isEmpty();
    }

    private static Producer<byte[], byte[]> producer(LocalKafka kafka) {
        IgnoreSendErrorsClientSupplier supplier = new IgnoreSendErrorsClientSupplier();
        supplier.configure(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "supplier-app"));
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "supplier-app-1");
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "supplier-app-StreamThread-1-producer");
        return supplier.getProducer(config);
    }
}
