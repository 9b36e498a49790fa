package dev.quarantine.txn;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

import dev.quarantine.sandbox.LocalKafka;

/**
 * One kind of poison record for the real-broker tests: how to prepare its topic, the producer settings it needs,
 * the poison record itself, the exception class IGNORE_SEND_ERRORS reports, and how stock Kafka fails on it.
 */
record PoisonCase(String name, Map<String, String> topicConfigs, int partitions, Map<String, Object> producerConfigs,
                  Function<String, ProducerRecord<String, Object>> poison, Class<? extends Throwable> expected,
                  StockFailure stock) {

    /** How KafkaProducer (TxnSendOption.NONE) fails on the poison. */
    enum StockFailure {
        /** send() itself throws; the transaction is not harmed. */
        SEND_THROWS,
        /** the record's future fails and commitTransaction() throws: the whole transaction is lost. */
        TRANSACTION_FAILS
    }

    @Override
    public String toString() {
        return name;
    }

    void createTopic(LocalKafka kafka, String topic) {
        kafka.createTopic(topic, partitions, topicConfigs);
    }

    Map<String, Object> producerConfigs(LocalKafka kafka, String transactionalId) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, "org.apache.kafka.common.serialization.StringSerializer");
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, PoisonAwareSerializer.class.getName());
        configs.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        configs.putAll(producerConfigs);
        return configs;
    }

    static String big(int bytes) {
        return "x".repeat(bytes);
    }
}
