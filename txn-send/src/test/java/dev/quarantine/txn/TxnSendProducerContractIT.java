package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/** Misuse, fatal errors, the exact size limits, wrapping and metrics, against the real broker. */
@ExtendWith(LocalKafkaExtension.class)
class TxnSendProducerContractIT {

    private static final AtomicInteger IDS = new AtomicInteger();

    @Test
    void refusesIgnoreSendErrorsOutsideATransactionOrWithoutOne(LocalKafka kafka) {
        String topic = topic(kafka, Map.of());
        Map<String, Object> plain = configs(kafka, null);
        try (TxnSendProducer<String, String> producer = new TxnSendProducer<>(plain)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "v"), null,
                    TxnSendOption.IGNORE_SEND_ERRORS))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("transactional.id");
        }
        TxnSendProducer<String, String> producer = new TxnSendProducer<>(configs(kafka, topic + "-txn"));
        producer.initTransactions();
        assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "v"), null, TxnSendOption.IGNORE_SEND_ERRORS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("beginTransaction()");
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, "v"), null, TxnSendOption.IGNORE_SEND_ERRORS);
        producer.commitTransaction();
        assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "v"), null, TxnSendOption.IGNORE_SEND_ERRORS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("beginTransaction()");
        producer.close();
        assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "v"), null, TxnSendOption.IGNORE_SEND_ERRORS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void neverIgnoresFencing(LocalKafka kafka) {
        String topic = topic(kafka, Map.of());
        String transactionalId = topic + "-txn";
        try (TxnSendProducer<String, String> zombie = new TxnSendProducer<>(configs(kafka, transactionalId));
             TxnSendProducer<String, String> successor = new TxnSendProducer<>(configs(kafka, transactionalId))) {
            zombie.initTransactions();
            zombie.beginTransaction();
            zombie.send(new ProducerRecord<>(topic, "from-zombie"), null, TxnSendOption.IGNORE_SEND_ERRORS);
            successor.initTransactions();

            assertThatThrownBy(() -> {
                zombie.send(new ProducerRecord<>(topic, "from-zombie-2"), null, TxnSendOption.IGNORE_SEND_ERRORS);
                zombie.commitTransaction();
            }).isInstanceOfAny(ProducerFencedException.class, InvalidProducerEpochException.class)
                    .satisfies(e -> assertThat(SendErrors.classify(e)).isEqualTo(SendErrorCategory.FATAL));
        }
        assertThat(TxnSendProducerIT.committedValues(kafka, topic)).isEmpty();
    }

    @Test
    void acceptsARecordExactlyAtTheTopicLimitAndLeavesOutOneByteMore(LocalKafka kafka) throws Exception {
        int limit = 5000;
        String topic = topic(kafka, Map.of("max.message.bytes", String.valueOf(limit)));
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);
        org.apache.kafka.common.header.Header[] none = new org.apache.kafka.common.header.Header[0];
        int length = limit;
        while (RecordSizes.singleRecordBatch(key, new byte[length], none) > limit) {
            length--;
        }
        byte[] fits = new byte[length];
        byte[] tooLarge = new byte[length + 1];
        assertThat(RecordSizes.singleRecordBatch(key, fits, none)).isEqualTo(limit);

        Map<String, Object> configs = configs(kafka, topic + "-txn");
        try (TxnSendProducer<byte[], byte[]> producer =
                     new TxnSendProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            CompletableFuture<Exception> fitsResult = new CompletableFuture<>();
            CompletableFuture<Exception> tooLargeResult = new CompletableFuture<>();
            producer.send(new ProducerRecord<>(topic, key, fits), (m, e) -> fitsResult.complete(e),
                    TxnSendOption.IGNORE_SEND_ERRORS);
            producer.send(new ProducerRecord<>(topic, key, tooLarge), (m, e) -> tooLargeResult.complete(e),
                    TxnSendOption.IGNORE_SEND_ERRORS);
            producer.commitTransaction();

            assertThat(fitsResult.get()).as("the broker accepted the record at the limit").isNull();
            assertThat(tooLargeResult.get()).isInstanceOf(RecordTooLargeException.class)
                    .hasMessageContaining("max.message.bytes").hasMessageContaining(topic);
        }
        assertThat(TxnSendProducerIT.committedValues(kafka, topic)).hasSize(1);
    }

    @Test
    void wrapsAnExistingProducerAndCountsLeftOutRecordsInItsMetrics(LocalKafka kafka) throws Exception {
        String topic = topic(kafka, Map.of("max.message.bytes", "2000"));
        Properties props = new Properties();
        configs(kafka, topic + "-txn").forEach(props::put);
        KafkaProducer<String, String> existing = new KafkaProducer<>(props);
        Map<String, Object> configs = new HashMap<>();
        props.forEach((k, v) -> configs.put((String) k, v));
        try (TxnSendProducer<String, String> producer = TxnSendProducer.wrap(existing, configs)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k", "good"), null, TxnSendOption.IGNORE_SEND_ERRORS);
            CompletableFuture<Exception> poison = new CompletableFuture<>();
            producer.send(new ProducerRecord<>(topic, "k", "x".repeat(3000)), (m, e) -> poison.complete(e),
                    TxnSendOption.IGNORE_SEND_ERRORS);
            producer.commitTransaction();

            assertThat(poison.get()).isInstanceOf(RecordTooLargeException.class);
            assertThat(producer.metrics().entrySet()).anySatisfy(e -> {
                assertThat(e.getKey().name()).isEqualTo("records-skipped-total");
                assertThat(e.getKey().tags()).containsEntry("error-class", "RecordTooLargeException");
                assertThat(e.getValue().metricValue()).isEqualTo(1.0);
            });
        }
        assertThat(TxnSendProducerIT.committedValues(kafka, topic)).containsExactly("good");
    }

    @Test
    void sendsWithTheDefaultOptionFromItsConfig(LocalKafka kafka) throws Exception {
        String topic = topic(kafka, Map.of("max.message.bytes", "2000"));
        Properties props = new Properties();
        configs(kafka, topic + "-txn").forEach(props::put);
        props.put(TxnSendConfig.DEFAULT_OPTION_CONFIG, "ignore_send_errors");
        try (TxnSendProducer<String, String> producer = new TxnSendProducer<>(props)) {
            assertThat(producer.defaultOption()).isEqualTo(TxnSendOption.IGNORE_SEND_ERRORS);
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k", "good"));
            CompletableFuture<Exception> poison = new CompletableFuture<>();
            producer.send(new ProducerRecord<>(topic, "k", "x".repeat(3000)), (m, e) -> poison.complete(e));
            producer.commitTransaction();
            assertThat(poison.get()).isInstanceOf(RecordTooLargeException.class);
        }
        assertThat(TxnSendProducerIT.committedValues(kafka, topic)).containsExactly("good");
    }

    private static String topic(LocalKafka kafka, Map<String, String> configs) {
        String topic = "contract-" + IDS.incrementAndGet();
        kafka.createTopic(topic, 1, configs);
        return topic;
    }

    private static Map<String, Object> configs(LocalKafka kafka, String transactionalId) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        if (transactionalId != null) {
            configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        return configs;
    }

}
