package dev.quarantine.connect.sink.ownership;

import static dev.quarantine.connect.sink.ownership.BrokerTransactions.describe;
import static dev.quarantine.connect.sink.ownership.BrokerTransactions.same;
import static dev.quarantine.connect.sink.ownership.BrokerTransactions.settled;
import static dev.quarantine.connect.sink.ownership.BrokerTransactions.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.connect.sink.cluster.TimeoutAbortingBroker;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;

/**
 * The real-broker twins of {@link ModelCoordinatorTest}'s rows that a client can stage, on Kafka 4.4's default
 * {@code transaction.version} 2 ({@link CoordinatorAnswersVersion1IT}: version 1): what the coordinator's state shows
 * ({@code describeTransactions}) and what the producer answers; each test names the model's rows it is the twin of.
 * {@link AbortWithNothingAddedIT} stages version 2's abort from CompleteCommit. Not staged here: a send while the
 * previous transaction's markers are pending (row (c)), which needs markers held on a partition whose leader is not the
 * coordinator's broker; the sandbox runs one broker.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CoordinatorAnswersIT {

    private LocalKafka kafka;

    /** The broker's {@code transaction.version}: Kafka's default when empty. */
    Optional<Short> transactionVersion() {
        return Optional.empty();
    }

    /** What the producer's commit is refused with after the coordinator aborted its transaction on timeout. */
    Class<? extends Exception> refusalOfACommitAfterTheTimeoutAbort() {
        return InvalidTxnStateException.class;
    }

    /** A broker that aborts timed-out transactions promptly, shared with the other classes of this JVM. */
    @BeforeAll
    void start() {
        kafka = TimeoutAbortingBroker.shared(transactionVersion());
    }

    @Test
    void aTransactionEndedWithoutASendNeverReachesTheCoordinator() throws Exception {
        // model row anEndOfATransactionWithoutASendIsCompletedByTheClientAloneUnderBothVersions
        String topic = topic("no-send");
        try (Admin admin = kafka.admin(); KafkaProducer<byte[], byte[]> producer = producer(topic + ".id", 60_000)) {
            producer.initTransactions();
            TransactionDescription initialised = describe(admin, topic + ".id");
            producer.beginTransaction();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.commitTransaction();
            assertThat(describe(admin, topic + ".id")).as("Empty at the epoch of the init: no EndTxn arrived")
                    .satisfies(same(TransactionState.EMPTY, initialised.producerEpoch()));

            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1})).get(30, TimeUnit.SECONDS);
            producer.commitTransaction();
            TransactionDescription committed = settled(admin, topic + ".id", TransactionState.COMPLETE_COMMIT);
            producer.beginTransaction();
            producer.abortTransaction();
            assertThat(describe(admin, topic + ".id")).as("still the commit, at its epoch")
                    .satisfies(same(TransactionState.COMPLETE_COMMIT, committed.producerEpoch()));
        }
    }

    @Test
    void aCommitAfterTheCoordinatorAbortedTheTransactionOnTimeoutIsRefused() throws Exception {
        // model rows aVersion2CommitAfterTheTimeoutAbortIsRefusedAsAnInvalidStateNotFenced (version 2) and
        // theCoordinatorAbortsATransactionPastItsTimeoutAndAVersion1ProducerIsFenced (version 1); harness row 33
        String topic = topic("timed-out");
        try (Admin admin = kafka.admin(); KafkaProducer<byte[], byte[]> producer = producer(topic + ".id", 1_000)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1})).get(30, TimeUnit.SECONDS);
            Await.until("the coordinator of " + topic + ".id to abort its timed-out transaction",
                    Duration.ofSeconds(60), () -> state(admin, topic + ".id") == TransactionState.COMPLETE_ABORT);

            assertThatThrownBy(producer::commitTransaction).isInstanceOf(refusalOfACommitAfterTheTimeoutAbort());
        }
    }

    private String topic(String name) {
        return BrokerTransactions.topic(kafka, name);
    }

    private KafkaProducer<byte[], byte[]> producer(String transactionalId, int transactionTimeoutMs) {
        return BrokerTransactions.producer(kafka, transactionalId, transactionTimeoutMs, Map.of());
    }
}
