package dev.quarantine.connect.sink.ownership;

import static dev.quarantine.connect.sink.ownership.BrokerTransactions.describe;
import static dev.quarantine.connect.sink.ownership.BrokerTransactions.same;
import static dev.quarantine.connect.sink.ownership.BrokerTransactions.settled;
import static dev.quarantine.connect.sink.ownership.BrokerTransactions.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;

/**
 * The real-broker twin of
 * {@link ModelCoordinatorTest#version2AcceptsAnAbortAtTheCurrentEpochFromEmptyAndCompleteStatesAndBumps} on Kafka
 * 4.4's default {@code transaction.version} 2: a transaction the client started with a send that never reached a
 * partition (its topic deleted after the producer cached its metadata, so the send is retried until
 * {@code delivery.timeout.ms} and never added) is aborted with an EndTxn(ABORT) at the current epoch while the
 * coordinator is in CompleteCommit; 4.4 accepts it and bumps the epoch. Version 2 only: a version-1 client starts a
 * transaction only once AddPartitionsToTxn succeeded, and its add of a deleted topic's partition is retried until the
 * producer is closed, so it never sends that EndTxn.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AbortWithNothingAddedIT {

    private static final Duration CLOSE = Duration.ofSeconds(10);

    private LocalKafka kafka;

    @BeforeAll
    void start() {
        kafka = LocalKafka.create().start();
    }

    @AfterAll
    void stop() {
        kafka.close();
    }

    @Test
    void anAbortAtTheCurrentEpochFromCompleteCommitIsAcceptedAndBumpsTheEpoch() throws Exception {
        String topic = BrokerTransactions.topic(kafka, "nothing-added");
        String id = topic + ".id";
        KafkaProducer<byte[], byte[]> producer = BrokerTransactions.producer(kafka, id, 60_000,
                Map.of(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "3000",
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "1000", ProducerConfig.LINGER_MS_CONFIG, "0"));
        try (Admin admin = kafka.admin()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1})).get(30, TimeUnit.SECONDS);
            producer.commitTransaction();
            TransactionDescription committed = settled(admin, id, TransactionState.COMPLETE_COMMIT);
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);

            producer.beginTransaction();
            Future<RecordMetadata> neverAdded = producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {2}));
            assertThatThrownBy(() -> neverAdded.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            assertThat(describe(admin, id).state()).as("nothing added").isEqualTo(TransactionState.COMPLETE_COMMIT);
            producer.abortTransaction();

            Await.until("the abort to complete", Duration.ofSeconds(30),
                    () -> state(admin, id) == TransactionState.COMPLETE_ABORT);
            TransactionDescription aborted = describe(admin, id);
            assertThat(aborted).satisfies(same(TransactionState.COMPLETE_ABORT, committed.producerEpoch() + 1));
            assertThat(aborted.topicPartitions()).isEmpty();
        } finally {
            producer.close(CLOSE);
        }
    }
}
