package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;

/** What the coordinator twins ({@link CoordinatorAnswersIT}, {@link AbortWithNothingAddedIT}) read and write. */
final class BrokerTransactions {

    private BrokerTransactions() {
    }

    /** A one-partition topic of its own. */
    static String topic(LocalKafka kafka, String name) {
        String topic = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(topic, 1, Map.of());
        return topic;
    }

    static KafkaProducer<byte[], byte[]> producer(LocalKafka kafka, String transactionalId, int transactionTimeoutMs,
                                                  Map<String, Object> overrides) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, String.valueOf(transactionTimeoutMs));
        props.putAll(overrides);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    static TransactionDescription describe(Admin admin, String transactionalId) throws Exception {
        return admin.describeTransactions(List.of(transactionalId)).description(transactionalId)
                .get(30, TimeUnit.SECONDS);
    }

    /** The id's state, or null while it cannot be described. */
    static TransactionState state(Admin admin, String transactionalId) {
        try {
            return describe(admin, transactionalId).state();
        } catch (Exception e) {
            return null;
        }
    }

    /** The id's description once it reached {@code state} (markers written, say). */
    static TransactionDescription settled(Admin admin, String transactionalId, TransactionState state)
            throws Exception {
        Await.until(transactionalId + " to reach " + state, Duration.ofSeconds(30),
                () -> state(admin, transactionalId) == state);
        return describe(admin, transactionalId);
    }

    static Consumer<TransactionDescription> same(TransactionState state, int epoch) {
        return description -> {
            assertThat(description.state()).isEqualTo(state);
            assertThat(description.producerEpoch()).isEqualTo(epoch);
        };
    }
}
