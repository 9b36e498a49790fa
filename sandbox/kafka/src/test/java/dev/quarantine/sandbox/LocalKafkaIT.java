package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class LocalKafkaIT {

    @Test
    void startsOnLoopbackServesRecordsAndLeavesNothingBehind() throws Exception {
        Path dataDir;
        try (LocalKafka kafka = LocalKafka.create().start()) {
            dataDir = kafka.dataDir();
            assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
            kafka.createTopic("sandbox-smoke");

            Properties producerProps = kafka.clientProps();
            producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "sandbox-smoke");
            try (KafkaProducer<String, String> producer =
                         new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("sandbox-smoke", "k", "v"));
                producer.commitTransaction();
            }

            Properties consumerProps = kafka.clientProps();
            consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "sandbox-smoke");
            consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            try (KafkaConsumer<String, String> consumer =
                         new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("sandbox-smoke"));
                List<String> values = TopicReader.pollUntil(consumer, 1, Duration.ofSeconds(30)).stream()
                        .map(r -> r.value()).toList();
                assertThat(values).containsExactly("v");
            }
        }
        assertThat(Files.exists(dataDir)).as("data dir %s deleted", dataDir).isFalse();
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count())
                .as("no broker process left").isZero();
    }
}
