package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;

/**
 * A transaction its coordinator aborted itself (the producer let it run past {@code transaction.timeout.ms}), as
 * {@link HangingTransactions} reads it before a new producer's initTransactions: the producer id and epoch its
 * records carry must be among those {@link LastTransaction} looks for, else what the abort left open (markers a
 * restarting broker skipped) is not repaired. On a broker shared with the classes of its JVM
 * ({@link TimeoutAbortingBroker#shared}) with Kafka 4.4's default transaction.version 2;
 * {@link TimedOutTransactionVersion1IT} runs the same on version 1, where the coordinator's fence bumps the epoch
 * and the abort completes at that epoch, one above the records'.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimedOutTransactionIT {

    private LocalKafka kafka;

    /** The broker's {@code transaction.version}: Kafka's default when empty. */
    Optional<Short> transactionVersion() {
        return Optional.empty();
    }

    /** A broker that aborts timed-out transactions promptly, shared with the other classes of this JVM. */
    @BeforeAll
    void start() {
        kafka = TimeoutAbortingBroker.shared(transactionVersion());
    }

    @Test
    void findsTheRecordsOfATransactionItsCoordinatorAbortedOnTimeout() throws Exception {
        String topic = "timed-out-" + UUID.randomUUID().toString().substring(0, 8);
        String transactionalId = topic + ".id";
        TopicPartition partition = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1, Map.of());

        try (Admin admin = kafka.admin(); KafkaProducer<byte[], byte[]> producer = producer(transactionalId)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1}));
            producer.flush();
            ProducerState records = admin.describeProducers(List.of(partition)).partitionResult(partition)
                    .get(30, TimeUnit.SECONDS).activeProducers().get(0);
            assertThat(records.currentTransactionStartOffset()).as("the transaction is open").isPresent();

            TransactionDescription aborted = Await.value(() -> "the coordinator of " + transactionalId
                    + " to abort its timed-out transaction", Duration.ofSeconds(60), () -> completeAbort(admin,
                    transactionalId));

            Optional<LastTransaction> last = LastTransaction.of(aborted, epochBumpedAtEnd(admin));
            assertThat(last).as("an abort, from " + aborted).get().satisfies(transaction -> {
                assertThat(transaction.aborted()).isTrue();
                assertThat(transaction.wrote(records.producerId(), records.producerEpoch()))
                        .as("the records' producer id %d and epoch %d are looked for", records.producerId(),
                                records.producerEpoch())
                        .isTrue();
            });
        }
    }

    /** As {@link TransactionAdmin#epochBumpedAtEnd} decides it: from the cluster's feature and the client's version. */
    private static boolean epochBumpedAtEnd(Admin admin) throws Exception {
        FinalizedVersionRange version = admin.describeFeatures().featureMetadata().get(30, TimeUnit.SECONDS)
                .finalizedFeatures().get(HangingTransactions.TRANSACTION_VERSION);
        return TransactionAdmin.endsWithEpochBump(version == null ? 0 : version.maxVersionLevel(),
                TransactionAdmin.clientVersion(admin));
    }

    private static TransactionDescription completeAbort(Admin admin, String transactionalId) {
        try {
            TransactionDescription described = admin.describeTransactions(List.of(transactionalId))
                    .description(transactionalId).get(10, TimeUnit.SECONDS);
            return described.state() == TransactionState.COMPLETE_ABORT ? described : null;
        } catch (Exception e) {
            return null;
        }
    }

    private KafkaProducer<byte[], byte[]> producer(String transactionalId) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "1000");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
