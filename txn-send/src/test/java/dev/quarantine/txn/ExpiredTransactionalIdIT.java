package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * A transactional id its coordinator forgot (idle past {@code transactional.id.expiration.ms}): the producer that
 * held it fails with InvalidPidMappingException, which {@link SendErrors#isFencing} reports as fencing, as Kafka
 * Streams treats it; a new producer, after {@code initTransactions()}, writes on. On a broker of its own that expires
 * ids idle for {@link #EXPIRATION} and looks for them every 500 ms.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExpiredTransactionalIdIT {

    /**
     * How long an idle transactional id is kept: long enough for a producer to go from initTransactions() to its first
     * send (a topic's first send describes it) on a loaded machine, short enough for the test.
     */
    private static final Duration EXPIRATION = Duration.ofSeconds(10);

    private LocalKafka kafka;

    @BeforeAll
    void start() {
        kafka = LocalKafka.create(Map.of("transactional.id.expiration.ms", String.valueOf(EXPIRATION.toMillis()),
                "transaction.remove.expired.transaction.cleanup.interval.ms", "500")).start();
    }

    @AfterAll
    void stop() {
        kafka.close();
    }

    @Test
    void aProducerWhoseTransactionalIdExpiredIsFencedAndANewOneWritesOn() throws Exception {
        String topic = "expired-id";
        String transactionalId = topic + ".writer";
        kafka.createTopic(topic, 1, Map.of());
        Throwable failure;
        try (TxnSendProducer<byte[], byte[]> producer = producer(transactionalId)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(record(topic, "before"), null, TxnSendOption.IGNORE_SEND_ERRORS);
            producer.commitTransaction();
            try (Admin admin = kafka.admin()) {
                Await.until("the coordinator to forget " + transactionalId, Duration.ofSeconds(60),
                        () -> forgotten(admin, transactionalId));
            }

            failure = catchThrowable(() -> {
                producer.beginTransaction();
                producer.send(record(topic, "lost"), null, TxnSendOption.IGNORE_SEND_ERRORS).get(30,
                        TimeUnit.SECONDS);
                producer.commitTransaction();
            });
        }

        assertThat(failure).as("the write after the id expired").isNotNull()
                .satisfies(e -> assertThat(SendErrors.isFencing(e)).as("fencing: %s", e).isTrue());
        assertThat(causes(failure)).anyMatch(InvalidPidMappingException.class::isInstance);
        try (TxnSendProducer<byte[], byte[]> next = producer(transactionalId)) {
            next.initTransactions();
            next.beginTransaction();
            next.send(record(topic, "after"), null, TxnSendOption.IGNORE_SEND_ERRORS);
            next.commitTransaction();
        }
        assertThat(TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(30)))
                .extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("before", "after");
    }

    private static boolean forgotten(Admin admin, String transactionalId) {
        try {
            admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get(10,
                    TimeUnit.SECONDS);
            return false;
        } catch (ExecutionException e) {
            return e.getCause() instanceof TransactionalIdNotFoundException;
        } catch (Exception e) {
            return false;
        }
    }

    private static List<Throwable> causes(Throwable error) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable e = error; e != null && !chain.contains(e); e = e.getCause()) {
            chain.add(e);
        }
        return chain;
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String value) {
        return new ProducerRecord<>(topic, 0, null, value.getBytes(StandardCharsets.UTF_8));
    }

    private TxnSendProducer<byte[], byte[]> producer(String transactionalId) {
        return new TxnSendProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000),
                new ByteArraySerializer(), new ByteArraySerializer());
    }
}
